import type { Database } from '@crm/db';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { type BatchOutcome, batchList, eachItem } from '../shared/batch.ts';
import { createTask } from './create-task.ts';
import { createTaskInput, type TaskOutput } from './schemas.ts';

export const createTasksInput = z.strictObject({
  items: batchList(createTaskInput).meta({
    description: 'Up to 100 bodies of `POST /tasks`, each created as that call would.',
  }),
});

/** `POST /tasks/batch`: each item created as `createTask` creates it (201), in item order and one transaction. */
export async function createTasks(
  db: Database,
  actor: Actor,
  input: z.output<typeof createTasksInput>,
): Promise<BatchOutcome<TaskOutput>[]> {
  return db.transaction((tx) =>
    eachItem(tx, input.items, async (itemDb, item) => ({
      created: true,
      data: await createTask(itemDb, actor, item),
    })),
  );
}
