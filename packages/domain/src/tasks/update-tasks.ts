import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachItem, idsOf, lockRowsInOrder } from '../shared/batch.ts';
import { type TaskOutput, updateTaskInput } from './schemas.ts';
import { updateTask } from './update-task.ts';

export const updateTasksInput = z.strictObject({
  items: batchList(updateTaskInput).meta({
    description: 'Up to 100 changes, each `{ id, … }` with the body of `PATCH /tasks/{id}`.',
  }),
});

/**
 * `PATCH /tasks/batch`: each item applied as `updateTask` applies it (200; completing a
 * recurring task creates its next occurrence), in item order and one transaction; an
 * unknown or other workspace's id is that item's 404.
 */
export async function updateTasks(
  db: Database,
  actor: Actor,
  input: z.output<typeof updateTasksInput>,
): Promise<BatchOutcome<TaskOutput>[]> {
  return db.transaction(async (tx) => {
    const ids = idsOf(input.items, (item) => item.id);
    await lockRowsInOrder(tx, schema.tasks, 'task', actor.workspaceId, ids);
    return eachItem(tx, input.items, async (itemDb, item) => ({
      created: false,
      data: await updateTask(itemDb, actor, item),
    }));
  });
}
