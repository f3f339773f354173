import { taskPriorities, taskRecurrences, taskStatuses, taskTypes } from '@crm/db/schema';
import { z } from 'zod';
import { filterParam } from '../shared/list-filter.ts';
import { countParam } from '../shared/list-query.ts';
import { sortParam } from '../shared/list-sort.ts';
import { pagingInput } from '../shared/paging.ts';
import { idParam, instantInput, instantOutput, nonBlankText } from '../shared/schemas.ts';

const title = nonBlankText(500);
const status = z.enum(taskStatuses);
const priority = z.enum(taskPriorities);
const type = z.enum(taskTypes);
const recurrence = z.enum(taskRecurrences);
const userRef = z.string().max(200).meta({ description: 'A user (usr_…) of the workspace' });
const recordRef = z.string().max(200).meta({ description: 'A live record (rec_…) to link the task to' });

export const taskOutput = z
  .object({
    id: z.string().meta({ example: 'task_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    title: z.string(),
    dueAt: instantOutput().nullable(),
    assigneeId: z.string().nullable(),
    recordId: z.string().nullable(),
    status,
    priority,
    type,
    recurrence: recurrence.nullable(),
    completedAt: instantOutput().nullable().meta({ description: 'Set while the task is DONE.' }),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'Task' });

export type TaskOutput = z.infer<typeof taskOutput>;

export const createTaskInput = z.strictObject({
  title,
  dueAt: instantInput().nullish(),
  assigneeId: userRef.nullish(),
  recordId: recordRef.nullish(),
  priority: priority.optional().meta({ description: 'Default MEDIUM' }),
  type: type.optional().meta({ description: 'Default TODO' }),
  recurrence: recurrence.nullish().meta({
    description:
      'Set on create only. When the task becomes DONE its next occurrence is created OPEN, `dueAt` advanced by the period.',
  }),
});

export type CreateTaskInput = z.infer<typeof createTaskInput>;

export const updateTaskInput = z.strictObject({
  id: idParam('Task id'),
  title: title.optional(),
  dueAt: instantInput().nullish(),
  assigneeId: userRef.nullish(),
  recordId: recordRef.nullish(),
  status: status.optional().meta({ description: 'DONE sets `completedAt`; OPEN again clears it.' }),
  priority: priority.optional(),
  type: type.optional(),
});

export type UpdateTaskInput = z.infer<typeof updateTaskInput>;

export const taskIdInput = z.strictObject({ id: idParam('Task id') });

export const findTasksInput = z.strictObject({
  recordId: z.string().max(200).optional().meta({ description: 'Only tasks linked to this live record' }),
  status: status.optional(),
  assigneeId: z.string().max(200).optional().meta({ description: 'Only tasks assigned to this user' }),
  filter: filterParam().optional(),
  sort: sortParam(
    ['dueAt', 'createdAt', 'updatedAt', 'title', 'completedAt'],
    null,
    '`dueAt`: soonest due first. `-dueAt`, `createdAt`, `updatedAt`, `title`, `completedAt` ascending, `-` before one for descending; `createdAt` alone means newest first, as before (the default). The id breaks ties; tasks without a value come last.',
  ),
  count: countParam('tasks'),
  ...pagingInput,
});

export type FindTasksInput = z.infer<typeof findTasksInput>;

/** `GET /records/{id}/tasks`: the task list's parameters. */
export const findRecordTasksInput = findTasksInput
  .omit({ recordId: true })
  .extend({ id: idParam('Record id') });

export type FindRecordTasksInput = z.infer<typeof findRecordTasksInput>;

export type TaskRecurrence = (typeof taskRecurrences)[number];
