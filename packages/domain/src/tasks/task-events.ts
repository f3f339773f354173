import type { Executor } from '@crm/db';
import { recordFields } from '../record-model/snapshot.ts';
import type { Actor } from '../shared/actor.ts';
import { appendEvent, appendEvents } from '../shared/events.ts';
import { serializeTask, type TaskRow } from './serialize.ts';

type TaskEventType = 'task.created' | 'task.updated' | 'task.completed';

/**
 * Writes a task event in the caller's transaction (docs/webhooks.md, "Payload"): `taskId`, the
 * `task` snapshot, and `recordId` / `folderId` / `record` of the linked live record (all null
 * when the task has none or it is in Trash), plus `extra`.
 */
export async function appendTaskEvent(
  tx: Executor,
  actor: Actor,
  type: TaskEventType,
  task: TaskRow,
  extra: Record<string, unknown>,
) {
  return appendEvent(tx, actor, type, {
    ...(await recordFields(tx, actor.workspaceId, task.recordId)),
    taskId: task.id,
    task: serializeTask(task),
    ...extra,
  });
}

/** Several events of one task, in order, in one statement (a PATCH that completes it: `task.updated`, then `task.completed`). */
export async function appendTaskEvents(
  tx: Executor,
  actor: Actor,
  task: TaskRow,
  events: { type: TaskEventType; extra: Record<string, unknown> }[],
) {
  const common = {
    ...(await recordFields(tx, actor.workspaceId, task.recordId)),
    taskId: task.id,
    task: serializeTask(task),
  };
  return appendEvents(
    tx,
    actor,
    events.map(({ type, extra }) => ({ type, fields: { ...common, ...extra } })),
  );
}
