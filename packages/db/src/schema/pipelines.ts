import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns.ts';
import { workspaces } from './workspaces.ts';

export const pipelines = pgTable(
  'pipelines',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text().notNull(),
    name: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: 'pipelines_pkey', columns: [t.workspaceId, t.id] })],
);
