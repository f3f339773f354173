import type { Executor } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { appendEvent, type EventType } from '../shared/events.ts';
import type { RecordRow } from './serialize.ts';
import { toRecordSnapshot } from './snapshot.ts';

/**
 * Record events (spec §6): `recordId`, `folderId` and the `record` snapshot as of the
 * event. A trashed record's event still carries its snapshot, so a receiver learns what
 * went to Trash without asking.
 */
export function recordEvent(
  tx: Executor,
  actor: Actor,
  type: Extract<EventType, `record.${string}`>,
  row: RecordRow,
  extra: Record<string, unknown> = {},
) {
  return appendEvent(tx, actor.workspaceId, type, {
    recordId: row.id,
    folderId: row.folderId,
    record: toRecordSnapshot(row),
    ...extra,
  });
}
