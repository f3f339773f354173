import { schema } from '@crm/db';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { RecordOutput } from './schemas.ts';

/**
 * A record as the API shows it: every column but `search_text`, `search_lower` and
 * `search_signature`, which only serve `q`.
 */
export type RecordRow = Omit<
  typeof schema.records.$inferSelect,
  'searchText' | 'searchLower' | 'searchSignature'
>;

/**
 * The columns reads select to answer with records: all but `search_text`, `search_lower` and
 * `search_signature`, made from the record's text: they would only be sent, decoded and dropped.
 */
export const recordColumns = (() => {
  const {
    searchText: _searchText,
    searchLower: _searchLower,
    searchSignature: _searchSignature,
    ...columns
  } = getTableColumns(schema.records);
  return columns;
})();

/**
 * `recordColumns` in SQL, each column of the table aliased `alias` by its name in the
 * database (snake_case), for statements written as SQL: their rows are made records by
 * `recordRowFromDriver`.
 */
export function recordColumnsOf(alias: string): SQL {
  return sql.raw(recordColumnsText(alias));
}

/** `recordColumnsOf` as text, for a statement written whole (a named one). */
export function recordColumnsText(alias: string): string {
  return Object.keys(recordColumns)
    .map((key) => `${alias}.${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`)
    .join(', ');
}

/**
 * A row of `recordColumns` as the driver returns it (snake_case names, instants as
 * PostgreSQL writes them), made a RecordRow without the ORM's per-column mapping: a list
 * reads 51 rows a page, and that mapping cost more CPU than the statement (docs/architecture.md,
 * "Cost per request").
 */
export function recordRowFromDriver(raw: Record<string, unknown>): RecordRow {
  return {
    workspaceId: raw.workspace_id as string,
    id: raw.id as string,
    folderId: raw.folder_id as string,
    title: raw.title as string,
    email: raw.email as string | null,
    phone: raw.phone as string | null,
    data: raw.data as RecordRow['data'],
    ownerId: raw.owner_id as string | null,
    createdAt: new Date(raw.created_at as string),
    updatedAt: new Date(raw.updated_at as string),
    trashedAt: raw.trashed_at === null ? null : new Date(raw.trashed_at as string),
  };
}

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
