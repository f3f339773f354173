import { schema } from '@crm/db';
import { getTableColumns } from 'drizzle-orm';
import type { RecordOutput } from './schemas.ts';

/** A record as the API shows it: every column but `search_text`, which only serves `q`. */
export type RecordRow = Omit<typeof schema.records.$inferSelect, 'searchText'>;

/**
 * The columns reads select to answer with records: all but `search_text`, a copy of the
 * record's text that would only be sent, decoded and dropped.
 */
export const recordColumns = (() => {
  const { searchText: _searchText, ...columns } = getTableColumns(schema.records);
  return columns;
})();

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
