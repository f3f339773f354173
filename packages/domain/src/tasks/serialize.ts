import type { schema } from '@crm/db';
import type { TaskOutput } from './schemas.ts';

export type TaskRow = typeof schema.tasks.$inferSelect;

export function serializeTask(row: TaskRow): TaskOutput {
  return {
    id: row.id,
    title: row.title,
    dueAt: row.dueAt ? row.dueAt.toISOString() : null,
    assigneeId: row.assigneeId,
    recordId: row.recordId,
    status: row.status,
    priority: row.priority,
    type: row.type,
    recurrence: row.recurrence,
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
