import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { forgetHistory } from '../shared/forget-history.ts';
import { loadTask } from './load-task.ts';

/** DELETE is permanent (docs/api.md, "Tasks"): there is no Trash for tasks and no event. */
export async function deleteTask(
  db: Database,
  actor: Actor,
  id: string,
): Promise<{ id: string; deleted: true }> {
  return db.transaction(async (tx) => {
    await loadTask(tx, actor, id, { forUpdate: true });
    const t = schema.tasks;
    await tx.delete(t).where(and(eq(t.workspaceId, actor.workspaceId), eq(t.id, id)));
    await forgetHistory(tx, actor.workspaceId, id);
    return { id, deleted: true as const };
  });
}
