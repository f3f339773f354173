import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachIdLocked } from '../shared/batch.ts';
import { idParam } from '../shared/schemas.ts';
import { deleteTask } from './delete-task.ts';

export const deleteTasksInput = z.strictObject({
  ids: batchList(idParam('Task id')).meta({ description: 'Up to 100 ids of tasks to delete permanently.' }),
});

/**
 * `POST /tasks/batch/delete`: each task deleted as `DELETE /tasks/{id}` deletes it (200
 * `{ id, deleted: true }`), in one transaction; an unknown or other workspace's id (one
 * deleted by an earlier item included) is that item's 404.
 */
export async function deleteTasks(
  db: Database,
  actor: Actor,
  input: z.output<typeof deleteTasksInput>,
): Promise<BatchOutcome<{ id: string; deleted: true }>[]> {
  return eachIdLocked(db, actor.workspaceId, { table: schema.tasks, kind: 'task' }, input.ids, (itemDb, id) =>
    deleteTask(itemDb, actor, id),
  );
}
