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
 * `appendRecordEvents`: single and batch writes, upserts, changes made by workflows, Trash and
 * restore.
 */
export function appendRecordEvent(
  tx: Executor,
  actor: Actor,
  type: RecordEventType,
  row: RecordRow,
  extra: Record<string, unknown> = {},
) {
  return appendEvent(tx, actor, type, recordEventFields(row, extra));
}

/** `appendRecordEvent` for many records in one statement (batch writes): the same payloads, in order. */
export function appendRecordEvents(tx: Executor, actor: Actor, type: RecordEventType, rows: RecordRow[]) {
  return appendEvents(
    tx,
    actor,
    rows.map((row) => ({ type, fields: recordEventFields(row) })),
  );
}

/**
 * The fields of `record.updated`: the record, the names of the fields that changed and their
 * old values (`changedFields`, `previous`), and both values of each (`changes`, which the
 * record's history keeps).
 */
export function recordUpdatedFields(
  row: RecordRow,
  changedFields: string[],
  previous: Record<string, unknown>,
) {
  const record = toRecordSnapshot(row);
  return {
    recordId: row.id,
    folderId: row.folderId,
    record,
    changedFields,
    previous,
    changes: changesOf(changedFields, previous, (field) =>
      field.startsWith('data.')
        ? (record.data[field.slice(5)] ?? null)
        : (record as unknown as Record<string, unknown>)[field],
    ),
  };
}

/** `{ <field>: { from, to } }` of the fields that changed, their new values read by `now`. */
export function changesOf(
  changedFields: string[],
  previous: Record<string, unknown>,
  now: (field: string) => unknown,
): Record<string, { from: unknown; to: unknown }> {
  return Object.fromEntries(
    changedFields.map((field) => [field, { from: previous[field] ?? null, to: now(field) ?? null }]),
  );
}

type RecordEventType = Extract<EventType, `record.${string}`>;

function recordEventFields(row: RecordRow, extra: Record<string, unknown> = {}) {
  if (extra.changedFields && extra.previous) {
    const { changedFields, previous, ...rest } = extra;
    return {
      ...recordUpdatedFields(row, changedFields as string[], previous as Record<string, unknown>),
      ...rest,
    };
  }
  return { recordId: row.id, folderId: row.folderId, record: toRecordSnapshot(row), ...extra };
}
