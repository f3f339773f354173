import { taskPriorities, taskRecurrences, taskStatuses, taskTypes } from '@crm/constants';
import { sql } from 'drizzle-orm';
import { foreignKey, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt, workspaceId } from './columns.ts';
import { records } from './records.ts';
import { users } from './users.ts';

export { taskPriorities, taskRecurrences, taskStatuses, taskTypes };

export const tasks = pgTable(
  'tasks',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    title: text().notNull(),
    dueAt: instant(),
    assigneeId: text().references(() => users.id, { onDelete: 'set null' }),
    recordId: text(),
    status: text({ enum: taskStatuses }).notNull().default('OPEN'),
    priority: text({ enum: taskPriorities }).notNull().default('MEDIUM'),
    type: text({ enum: taskTypes }).notNull().default('TODO'),
    recurrence: text({ enum: taskRecurrences }),
    completedAt: instant(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'tasks_pkey', columns: [t.workspaceId, t.id] }),
    foreignKey({
      name: 'tasks_record_fk',
      columns: [t.workspaceId, t.recordId],
      foreignColumns: [records.workspaceId, records.id],
    }),
    index('tasks_created_idx').on(t.workspaceId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('tasks_record_idx').on(t.workspaceId, t.recordId).where(sql`${t.recordId} is not null`),
    index('tasks_due_idx').on(t.workspaceId, t.status, t.dueAt),
  ],
);
