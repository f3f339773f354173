import { sql } from 'drizzle-orm';
import { foreignKey, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns.ts';
import { folders } from './folders.ts';
import { users } from './users.ts';

/**
 * What a saved view of the records table holds (docs/web-app.md, "Saved views"): the columns
 * shown in order, the sort, and the filters as the list's query parameters take them
 * (`{ field, op, value }`, ANDed).
 */
export interface SavedViewDefinition {
  columns: string[];
  sort: string | null;
  filters: { field: string; op: string; value: string }[];
}

/** A user's own view of a folder's records: only that user lists, changes or deletes it. */
export const savedViews = pgTable(
  'saved_views',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    folderId: text().notNull(),
    name: text().notNull(),
    definition: jsonb().$type<SavedViewDefinition>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'saved_views_pkey', columns: [t.workspaceId, t.id] }),
    // A view belongs to a folder of its own workspace and goes with it.
    foreignKey({
      name: 'saved_views_folder_fk',
      columns: [t.workspaceId, t.folderId],
      foreignColumns: [folders.workspaceId, folders.id],
    }).onDelete('cascade'),
    // One name per user and folder, whatever its letter case; also the index a user's views of a
    // folder are listed by.
    uniqueIndex('saved_views_name_key').on(t.workspaceId, t.userId, t.folderId, sql`lower(${t.name})`),
  ],
);
