import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, isNull } from 'drizzle-orm';

/** The record as event payloads carry it (spec §6): id, folderId, title, email, phone, data. */
export interface RecordSnapshot {
  id: string;
  folderId: string;
  title: string;
  email: string | null;
  phone: string | null;
  data: Record<string, unknown>;
}

export function toRecordSnapshot(row: RecordSnapshot): RecordSnapshot {
  return {
    id: row.id,
    folderId: row.folderId,
    title: row.title,
    email: row.email,
    phone: row.phone,
    data: row.data,
  };
}

/** The snapshot of a live record, or null when it is gone or in Trash. */
export async function loadRecordSnapshot(
  tx: Executor,
  workspaceId: string,
  recordId: string | null,
): Promise<RecordSnapshot | null> {
  if (!recordId) return null;
  const r = schema.records;
  const [row] = await tx
    .select({ id: r.id, folderId: r.folderId, title: r.title, email: r.email, phone: r.phone, data: r.data })
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), eq(r.id, recordId), isNull(r.trashedAt)));
  return row ?? null;
}

/** The spec's `recordId`, `folderId`, `record` trio of an event about (or linked to) a record. */
export async function recordFields(tx: Executor, workspaceId: string, recordId: string | null) {
  const record = await loadRecordSnapshot(tx, workspaceId, recordId);
  return { recordId: record?.id ?? null, folderId: record?.folderId ?? null, record };
}
