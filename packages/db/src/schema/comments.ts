import { foreignKey, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns.ts';
import { records } from './records.ts';
import { users } from './users.ts';

export const comments = pgTable(
  'comments',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    recordId: text().notNull(),
    text: text().notNull(),
    authorId: text().references(() => users.id, { onDelete: 'set null' }),
    /** Display name of the author when the comment was written. */
    author: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'comments_pkey', columns: [t.workspaceId, t.id] }),
    foreignKey({
      name: 'comments_record_fk',
      columns: [t.workspaceId, t.recordId],
      foreignColumns: [records.workspaceId, records.id],
    }).onDelete('cascade'),
    index('comments_record_idx').on(t.workspaceId, t.recordId, t.createdAt, t.id),
  ],
);
