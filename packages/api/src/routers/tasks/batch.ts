import {
  createTasks,
  createTasksInput,
  deletedItemOutput,
  deleteTasks,
  deleteTasksInput,
  taskOutput,
  updateTasks,
  updateTasksInput,
} from '@crm/domain';
import { batchAnswerSchema, batchProcedure } from '../../batch-router.ts';

const tags = ['Tasks'];
const answer = batchAnswerSchema(taskOutput, 'TaskBatchAnswer');

/**
 * The batch writes of tasks (docs/api.md, "Batch writes"), spread into the tasks router.
 * Their place there only orders the OpenAPI document's operations: the REST route table
 * takes `/tasks/batch` before `/tasks/{id}` whatever the order (rest-routes.ts).
 */
export const tasksBatchProcedures = {
  batchCreate: batchProcedure({
    scope: 'tasks:write',
    method: 'POST',
    path: '/tasks/batch',
    tags,
    summary: 'Create tasks in a batch',
    description: 'Each item is the body of `POST /tasks` and is created as that call would create it (201).',
    input: createTasksInput,
    answer,
    action: createTasks,
  }),

  batchUpdate: batchProcedure({
    scope: 'tasks:write',
    method: 'PATCH',
    path: '/tasks/batch',
    tags,
    summary: 'Update tasks in a batch',
    description:
      'Each item is `{ id, … }` with the body of `PATCH /tasks/{id}`, applied in order as that call would apply it (200; an unknown id: 404).',
    input: updateTasksInput,
    answer,
    action: updateTasks,
  }),

  batchDelete: batchProcedure({
    scope: 'tasks:delete',
    method: 'POST',
    path: '/tasks/batch/delete',
    tags,
    summary: 'Delete tasks permanently in a batch',
    description:
      'Each id is deleted as `DELETE /tasks/{id}` would delete it (200 `{ id, deleted: true }`; an unknown id: 404).',
    input: deleteTasksInput,
    answer: batchAnswerSchema(deletedItemOutput, 'TaskDeleteBatchAnswer'),
    action: deleteTasks,
  }),
};
