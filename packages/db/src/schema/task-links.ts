import { foreignKey, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, workspaceId } from './columns.ts';
import { records } from './records.ts';
import { tasks } from './tasks.ts';

/** The records a task is about, as `dealLinks` for deals; the task's `record_id` is one of them. */
export const taskLinks = pgTable(
  'task_links',
  {
    workspaceId: workspaceId(),
    taskId: text().notNull(),
    recordId: text().notNull(),
    label: text(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'task_links_pkey', columns: [t.workspaceId, t.taskId, t.recordId] }),
    index('task_links_record_idx').on(t.workspaceId, t.recordId, t.taskId),
    foreignKey({
      name: 'task_links_task_fk',
      columns: [t.workspaceId, t.taskId],
      foreignColumns: [tasks.workspaceId, tasks.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'task_links_record_fk',
      columns: [t.workspaceId, t.recordId],
      foreignColumns: [records.workspaceId, records.id],
    }).onDelete('cascade'),
  ],
);
