import { DomainError } from '@crm/domain';
import { z } from 'zod';
import { fittingPage } from '../answer.ts';
import { ADDS, type Caller, item, listOutput, paging, READS, SETS, tool } from '../tool.ts';
import { DEFAULT_LIMIT } from './records.ts';

const recordId = z.string().max(200).describe('Record id (rec_…).');

export const listDeals = tool({
  name: 'list_deals',
  title: 'List deals',
  description:
    'The deals of a pipeline, newest first, optionally only those in one stage or linked to one record. describe_workspace lists pipelines and stages.',
  scopes: ['deals:read'],
  annotations: READS,
  input: z.strictObject({
    pipelineId: z.string().max(200).describe('The pipeline (pl_…).'),
    stageId: z.string().max(200).optional().describe('Only deals in this stage (st_…).'),
    recordId: z.string().max(200).optional().describe('Only deals linked to this record.'),
    ...paging,
  }),
  output: listOutput('deals'),
  async run(caller, input) {
    return fittingPage(input.limit ?? DEFAULT_LIMIT, async (limit) => {
      const { data: deals, meta } = await caller.deals.list({
        pipelineId: input.pipelineId,
        ...(input.stageId ? { stageId: input.stageId } : {}),
        ...(input.recordId ? { recordId: input.recordId } : {}),
        ...(input.cursor ? { cursor: input.cursor } : {}),
        pageSize: limit,
      });
      return { deals, nextCursor: meta.nextCursor ?? null };
    });
  },
});

export const moveDeal = tool({
  name: 'move_deal',
  title: 'Move a deal to a stage',
  description: 'Move a deal to another stage of its pipeline, named by the stage id or its name.',
  scopes: ['deals:write'],
  annotations: SETS,
  input: z.strictObject({
    id: z.string().max(200).describe('Deal id (deal_…).'),
    stage: z.string().max(200).describe('The stage: its id (st_…) or its name in the deal’s pipeline.'),
  }),
  output: z.object({ deal: item }),
  async run(caller, { id, stage }) {
    const stageId = stage.startsWith('st_') ? stage : await stageNamed(caller, id, stage);
    return { deal: (await caller.deals.update({ id, stageId })).data };
  },
});

/** The id of the stage called `name` (any case) in the pipeline of deal `id`; a 400 listing them if none. */
async function stageNamed(caller: Caller, id: string, name: string): Promise<string> {
  const { data: deal } = await caller.deals.get({ id });
  const { data: pipeline } = await caller.pipelines.get({ id: deal.pipelineId });
  const wanted = name.trim().toLowerCase();
  const found = pipeline.stages.find((s) => s.name.toLowerCase() === wanted);
  if (found) return found.id;
  throw new DomainError('VALIDATION_FAILED', `No stage "${name}" in pipeline "${pipeline.name}"`, {
    details: [{ path: 'stage', message: `one of: ${pipeline.stages.map((s) => s.name).join(', ')}` }],
  });
}

export const listTasks = tool({
  name: 'list_tasks',
  title: 'List tasks',
  description: 'Tasks, soonest due first: open or done, of one assignee, or linked to one record.',
  scopes: ['tasks:read'],
  annotations: READS,
  input: z.strictObject({
    status: z.enum(['OPEN', 'DONE']).optional().describe('Only open or only done tasks.'),
    assigneeId: z.string().max(200).optional().describe('Only tasks assigned to this user (usr_…).'),
    recordId: z.string().max(200).optional().describe('Only tasks linked to this record.'),
    ...paging,
  }),
  output: listOutput('tasks'),
  async run(caller, input) {
    return fittingPage(input.limit ?? DEFAULT_LIMIT, async (limit) => {
      const { data: tasks, meta } = await caller.tasks.list({
        ...(input.status ? { status: input.status } : {}),
        ...(input.assigneeId ? { assigneeId: input.assigneeId } : {}),
        ...(input.recordId ? { recordId: input.recordId } : {}),
        ...(input.cursor ? { cursor: input.cursor } : {}),
        sort: 'dueAt',
        pageSize: limit,
      });
      return { tasks, nextCursor: meta.nextCursor ?? null };
    });
  },
});

export const createTask = tool({
  name: 'create_task',
  title: 'Create a task',
  description:
    'Add a task (a to-do, call, email or meeting), optionally due at a time, assigned and linked to a record.',
  scopes: ['tasks:write'],
  annotations: ADDS,
  input: z.strictObject({
    title: z.string().min(1).max(500),
    dueAt: z.iso.datetime({ offset: true }).optional().describe('When it is due, ISO 8601 with an offset.'),
    assigneeId: z.string().max(200).optional().describe('A user (usr_…); describe_workspace lists members.'),
    recordId: z.string().max(200).optional().describe('A record (rec_…) the task is about.'),
    priority: z.enum(['LOW', 'MEDIUM', 'HIGH', 'URGENT']).optional(),
    type: z.enum(['TODO', 'CALL', 'EMAIL', 'MEETING']).optional(),
  }),
  output: z.object({ task: item }),
  async run(caller, input) {
    return { task: (await caller.tasks.create(input)).data };
  },
});

export const completeTask = tool({
  name: 'complete_task',
  title: 'Complete a task',
  description: 'Mark a task done (or open again with `reopen`). A recurring task gets its next occurrence.',
  scopes: ['tasks:write'],
  annotations: SETS,
  input: z.strictObject({
    id: z.string().max(200).describe('Task id (task_…).'),
    reopen: z.boolean().optional().describe('Mark it open again instead.'),
  }),
  output: z.object({ task: item }),
  async run(caller, { id, reopen }) {
    return { task: (await caller.tasks.update({ id, status: reopen ? 'OPEN' : 'DONE' })).data };
  },
});

export const addComment = tool({
  name: 'add_comment',
  title: 'Comment on a record',
  description: "Add a comment to a record's timeline.",
  scopes: ['comments:write'],
  annotations: ADDS,
  input: z.strictObject({
    recordId,
    text: z.string().min(1).max(10_000).describe('The comment, 1 to 10,000 characters.'),
  }),
  output: z.object({ comment: item }),
  async run(caller, { recordId: id, text }) {
    return { comment: (await caller.comments.create({ id, text })).data };
  },
});

export const logCall = tool({
  name: 'log_call',
  title: 'Log a call',
  description: "Record a phone call with a record's contact on its timeline.",
  scopes: ['calls:write'],
  annotations: ADDS,
  input: z.strictObject({
    recordId,
    direction: z.enum(['INBOUND', 'OUTBOUND']).optional().describe('Default OUTBOUND.'),
    outcome: z
      .enum(['CONNECTED', 'NO_ANSWER', 'BUSY', 'VOICEMAIL', 'FAILED'])
      .optional()
      .describe('Default CONNECTED.'),
    duration: z.number().int().min(0).max(604_800).optional().describe('Whole seconds.'),
    notes: z.string().max(10_000).optional(),
    calledAt: z.iso.datetime({ offset: true }).optional().describe('When it took place; default now.'),
  }),
  output: z.object({ call: item }),
  async run(caller, { recordId: id, ...call }) {
    return { call: (await caller.calls.create({ id, ...call })).data };
  },
});
