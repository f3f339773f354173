import {
  batchEnvelope,
  createTasks,
  createTasksInput,
  deletedItemOutput,
  deleteTasks,
  deleteTasksInput,
  taskOutput,
  updateTasks,
  updateTasksInput,
} from '@crm/domain';
import { batchAnswer } from '../../batch-answer.ts';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput } from '../../trpc.ts';

const tags = ['Tasks'];
const answer = batchEnvelope(taskOutput).meta({ id: 'TaskBatchAnswer' });
const answered =
  'Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit.';

/**
 * The batch writes of tasks (docs/api.md, "Batch writes"), spread into the tasks router.
 * Their place there only orders the OpenAPI document's operations: the REST route table
 * takes `/tasks/batch` before `/tasks/{id}` whatever the order (rest-routes.ts).
 */
export const tasksBatchProcedures = {
  batchCreate: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:write',
        openapi: {
          method: 'POST',
          path: '/tasks/batch',
          tags,
          summary: 'Create tasks in a batch',
          description: `Each item is the body of \`POST /tasks\` and is created as that call would create it (201). ${answered}`,
        },
      }),
    )
    .input(createTasksInput)
    .concat(declaredOutput(answer))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await createTasks(ctx.db, ctx.actor, input), ctx.requestId),
    ),

  batchUpdate: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:write',
        openapi: {
          method: 'PATCH',
          path: '/tasks/batch',
          tags,
          summary: 'Update tasks in a batch',
          description: `Each item is \`{ id, … }\` with the body of \`PATCH /tasks/{id}\`, applied in order as that call would apply it (200; an unknown id: 404). ${answered}`,
        },
      }),
    )
    .input(updateTasksInput)
    .concat(declaredOutput(answer))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await updateTasks(ctx.db, ctx.actor, input), ctx.requestId),
    ),

  batchDelete: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:delete',
        openapi: {
          method: 'POST',
          path: '/tasks/batch/delete',
          tags,
          summary: 'Delete tasks permanently in a batch',
          description: `Each id is deleted as \`DELETE /tasks/{id}\` would delete it (200 \`{ id, deleted: true }\`; an unknown id: 404). ${answered}`,
        },
      }),
    )
    .input(deleteTasksInput)
    .concat(declaredOutput(batchEnvelope(deletedItemOutput).meta({ id: 'TaskDeleteBatchAnswer' })))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await deleteTasks(ctx.db, ctx.actor, input), ctx.requestId),
    ),
};
