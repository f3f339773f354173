import type { Executor } from '@crm/db';
import { recordFields } from '../records/snapshot.ts';
import type { Actor } from '../shared/actor.ts';
import { appendEvent } from '../shared/events.ts';
import { serializeTask, type TaskRow } from './serialize.ts';

/**
 * Writes a task event in the caller's transaction (contract §6): `taskId`, the `task`
 * snapshot, and the spec's `recordId` / `folderId` / `record` of the linked live record
 * (all null when the task has none or it is in Trash), plus `extra`.
 */
export async function appendTaskEvent(
  tx: Executor,
  actor: Actor,
  type: 'task.created' | 'task.completed',
  task: TaskRow,
  extra: Record<string, unknown>,
) {
  return appendEvent(tx, actor.workspaceId, type, {
    ...(await recordFields(tx, actor.workspaceId, task.recordId)),
    taskId: task.id,
    task: serializeTask(task),
    ...extra,
  });
}
