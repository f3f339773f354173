import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { RecordOutput } from './schemas.ts';
import { type RecordRow, recordColumns, serializeRecord } from './serialize.ts';

/**
 * The `record` of an event payload ("Payload" in docs/webhooks.md): the record exactly as
 * `GET /api/v1/records/{id}` answers it, made by the same serializer so the two cannot drift.
 */
export type RecordSnapshot = RecordOutput;

export function toRecordSnapshot(row: RecordRow): RecordSnapshot {
  return serializeRecord(row);
}

/** The snapshot of a live record, or null when it is gone or in Trash. */
async function loadRecordSnapshot(
  tx: Executor,
  workspaceId: string,
  recordId: string | null,
): Promise<RecordSnapshot | null> {
  if (!recordId) return null;
  const r = schema.records;
  // By the primary key alone, trashed or not: see loadInWorkspace.
  const [row] = await tx
    .select(recordColumns)
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), eq(r.id, recordId)));
  return row && row.trashedAt === null ? toRecordSnapshot(row) : null;
}

/** The `recordId`, `folderId`, `record` trio of an event about (or linked to) a record. */
export async function recordFields(tx: Executor, workspaceId: string, recordId: string | null) {
  const record = await loadRecordSnapshot(tx, workspaceId, recordId);
  return { recordId: record?.id ?? null, folderId: record?.folderId ?? null, record };
}
