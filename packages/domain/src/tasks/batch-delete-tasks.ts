import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachItem, idsOf, lockRowsInOrder } from '../shared/batch.ts';
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
  return db.transaction(async (tx) => {
    await lockRowsInOrder(
      tx,
      schema.tasks,
      'task',
      actor.workspaceId,
      idsOf(input.ids, (id) => id),
    );
    return eachItem(tx, input.ids, async (itemDb, id) => ({
      status: 200,
      data: await deleteTask(itemDb, actor, id),
    }));
  });
}
