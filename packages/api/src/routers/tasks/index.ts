import {
  createTask,
  createTaskInput,
  deletedOutput,
  deleteTask,
  envelope,
  filteredListEnvelope,
  findTasks,
  findTasksInput,
  getTask,
  taskIdInput,
  taskOutput,
  taskRecordLinks,
  updateTask,
  updateTaskInput,
} from '@crm/domain';
import { restRoute } from '../../rest-route.ts';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';
import { historyProcedures } from '../history.ts';
import { participantProcedures } from '../participants.ts';
import { tasksBatchProcedures } from './batch.ts';

const tags = ['Tasks'];
const one = envelope(taskOutput);

export const tasksRouter = router({
  // First, so that /tasks/batch is not taken for /tasks/{id} (see batch.ts).
  ...tasksBatchProcedures,
  ...historyProcedures('task', tags),
  ...participantProcedures('task', taskRecordLinks, tags),
  list: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:read',
        openapi: {
          method: 'GET',
          path: '/tasks',
          tags,
          summary: 'List tasks',
          description:
            'Newest first, or with `sort=dueAt` soonest due first (tasks without a due time last), or as `sort` says (`-dueAt`, `title`, `updatedAt` …). Filter by `recordId` (a live record, 404 otherwise), `status` and `assigneeId`, and any task field with `filter[<field>]` / `filter[<field>][<op>]` (ANDed); `count=true` adds `meta.total`. Page with `page` or `cursor`.',
        },
        errors: [404],
      }),
    )
    .input(findTasksInput)
    .concat(declaredOutput(filteredListEnvelope(taskOutput)))
    .query(({ ctx, input }) => findTasks(ctx.db, ctx.actor, input)),

  get: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:read',
        openapi: {
          method: 'GET',
          path: '/tasks/{id}',
          tags,
          summary: 'Get a task',
          description: 'The task. Carries an ETag; If-None-Match answers 304.',
        },
        errors: [404],
      }),
    )
    .input(taskIdInput)
    .concat(declaredOutput(one))
    .query(async ({ ctx, input }) => ({ data: await getTask(ctx.db, ctx.actor, input.id) })),

  create: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:write',
        openapi: {
          method: 'POST',
          path: '/tasks',
          tags,
          summary: 'Create a task',
          description:
            'Answers 201 with the new task, always OPEN. `assigneeId` must be a member of the workspace and `recordId` a live record (400 otherwise).',
        },
        successStatus: 201,
        location: '/tasks/{id}',
      }),
    )
    .input(createTaskInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await createTask(ctx.db, ctx.actor, input) })),

  update: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:write',
        openapi: {
          method: 'PATCH',
          path: '/tasks/{id}',
          tags,
          summary: 'Update a task',
          description:
            'Fields not given stay. `status` DONE sets `completedAt` (OPEN clears it); completing a recurring task creates its next occurrence, OPEN and due one period later. `recurrence` cannot be changed.',
        },
        errors: [404],
      }),
    )
    .input(updateTaskInput)
    .concat(declaredOutput(one))
    .mutation(async ({ ctx, input }) => ({ data: await updateTask(ctx.db, ctx.actor, input) })),

  delete: authedProcedure
    .meta(
      restRoute({
        scope: 'tasks:delete',
        openapi: {
          method: 'DELETE',
          path: '/tasks/{id}',
          tags,
          summary: 'Delete a task permanently',
          description:
            'Deletes the task for good and answers `{ id, deleted: true }`. If-Match makes it conditional.',
        },
        errors: [404],
      }),
    )
    .input(taskIdInput)
    .concat(declaredOutput(deletedOutput))
    .mutation(async ({ ctx, input }) => ({ data: await deleteTask(ctx.db, ctx.actor, input.id) })),
});
