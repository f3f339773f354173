import type { schema } from '@crm/db';
import type { RecordOutput } from './schemas.ts';

export type RecordRow = typeof schema.records.$inferSelect;

export function serializeRecord(row: RecordRow): RecordOutput {
  return {
    id: row.id,
    folderId: row.folderId,
    title: row.title,
    email: row.email,
    phone: row.phone,
    data: row.data,
    ownerId: row.ownerId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    trashedAt: row.trashedAt ? row.trashedAt.toISOString() : null,
  };
}
