import type { Executor } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { appendEvent, appendEvents, type EventType } from '../shared/events.ts';
import type { RecordRow } from './serialize.ts';
import { toRecordSnapshot } from './snapshot.ts';

/**
 * Record events ("Payload" in docs/webhooks.md): `recordId`, `folderId` and the `record`
 * snapshot as of the event, in the shape `GET /api/v1/records/{id}` answers. A trashed
 * record's event still carries its snapshot (with `trashedAt` set), so a receiver learns
 * what went to Trash without asking. Every record write reaches its event through here or
 * `recordEvents`: single and batch writes, upserts, changes made by workflows, Trash and
 * restore.
 */
export function recordEvent(
  tx: Executor,
  actor: Actor,
  type: RecordEventType,
  row: RecordRow,
  extra: Record<string, unknown> = {},
) {
  return appendEvent(tx, actor.workspaceId, type, recordEventFields(row, extra));
}

/** `recordEvent` for many records in one statement (batch writes): the same payloads, in order. */
export function recordEvents(tx: Executor, actor: Actor, type: RecordEventType, rows: RecordRow[]) {
  return appendEvents(
    tx,
    actor.workspaceId,
    rows.map((row) => ({ type, fields: recordEventFields(row) })),
  );
}

type RecordEventType = Extract<EventType, `record.${string}`>;

function recordEventFields(row: RecordRow, extra: Record<string, unknown> = {}) {
  return { recordId: row.id, folderId: row.folderId, record: toRecordSnapshot(row), ...extra };
}
