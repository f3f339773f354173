import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import type { TaskRow } from './serialize.ts';

/** Loads a task of the caller's workspace or throws NOT_FOUND (a malformed or foreign id included). */
export async function loadTask(
  tx: Executor,
  actor: Actor,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TaskRow> {
  return loadInWorkspace(tx, schema.tasks, actor.workspaceId, id, {
    kind: 'task',
    name: 'Task',
    ...(options.forUpdate ? { lock: 'update' } : {}),
  });
}
