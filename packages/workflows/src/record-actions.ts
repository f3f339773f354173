import type { Database, Executor } from '@crm/db';
import {
  type Actor,
  createComment,
  createCommentInput,
  createDeal,
  createDealInput,
  createRecord,
  createRecordInput,
  createTask,
  createTaskInput,
  linkRecord,
  linkRecordInput,
  updateDeal,
  updateDealInput,
  updateRecord,
  updateRecordInput,
} from '@crm/domain';
import { StepError } from './errors.ts';

/** What a step changes besides its output: the context record of later steps. */
export interface StepResult {
  output: unknown;
  contextRecordId?: string;
}

export interface ActionContext {
  actor: Actor;
  /** The run's context record, if any. */
  recordId: string | null;
  now: Date;
}

type Params = Record<string, unknown>;

/**
 * Optional parameters that rendered to nothing (a template over a missing field gives null
 * or '') are left out, so "{{ trigger.body.phone }}" without a phone sets no phone.
 */
function present(params: Params, keys: string[]): Params {
  const out: Params = {};
  for (const key of keys) {
    const value = params[key];
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  }
  return out;
}

function targetRecord(params: Params, context: ActionContext, action: string): string {
  const given = params.recordId;
  if (typeof given === 'string' && given !== '') return given;
  if (context.recordId) return context.recordId;
  throw new StepError(
    `${action} needs a record: call the trigger with a recordId, create one in an earlier step, or give recordId`,
    true,
  );
}

/** Domain services take a database handle; inside the step's transaction they nest as savepoints. */
const asDb = (tx: Executor) => tx as Database;

/** The actions that change CRM data, run inside the transaction that records the step. */
export const recordActions: Record<
  string,
  (tx: Executor, params: Params, context: ActionContext) => Promise<StepResult>
> = {
  async CREATE_RECORD(tx, params, context) {
    const input = createRecordInput.parse({
      ...present(params, ['folderId', 'title', 'email', 'phone', 'data', 'ownerId']),
      ...(params.upsertBy === 'email' ? { upsert: 'email' } : {}),
    });
    const { record, created } = await createRecord(asDb(tx), context.actor, input);
    return { output: { ...record, created }, contextRecordId: record.id };
  },

  async UPDATE_RECORD(tx, params, context) {
    const id = targetRecord(params, context, 'UPDATE_RECORD');
    const changes: Params = { id };
    for (const key of ['title', 'email', 'phone', 'data'] as const) {
      if (params[key] !== undefined)
        changes[key] = params[key] === '' && key !== 'title' ? null : params[key];
    }
    const record = await updateRecord(asDb(tx), context.actor, updateRecordInput.parse(changes));
    return { output: record, contextRecordId: record.id };
  },

  async ASSIGN_OWNER(tx, params, context) {
    const id = targetRecord(params, context, 'ASSIGN_OWNER');
    const record = await updateRecord(
      asDb(tx),
      context.actor,
      updateRecordInput.parse({ id, ownerId: params.ownerId }),
    );
    return { output: record, contextRecordId: record.id };
  },

  async ADD_COMMENT(tx, params, context) {
    const id = targetRecord(params, context, 'ADD_COMMENT');
    const comment = await createComment(
      asDb(tx),
      context.actor,
      createCommentInput.parse({ id, text: params.text }),
    );
    return { output: comment };
  },

  async LINK_RECORDS(tx, params, context) {
    const id = targetRecord(params, context, 'LINK_RECORDS');
    const by = typeof params.by === 'string' ? params.by : 'id';
    const input = linkRecordInput.parse({
      id,
      field: params.field,
      to: by === 'id' ? params.to : { [by]: params.to },
      ...present(params, ['label']),
    });
    const { created, data } = await linkRecord(asDb(tx), context.actor, input);
    return { output: { ...data, created } };
  },

  async CREATE_DEAL(tx, params, context) {
    const linked =
      typeof params.recordId === 'string' && params.recordId !== '' ? params.recordId : context.recordId;
    const input = createDealInput.parse({
      ...present(params, ['pipelineId', 'stageId', 'title', 'currency', 'closeDate', 'data']),
      ...(params.amount !== undefined && params.amount !== null && params.amount !== ''
        ? { amount: typeof params.amount === 'string' ? Number(params.amount) : params.amount }
        : {}),
      ...(linked ? { recordId: linked } : {}),
    });
    return { output: await createDeal(asDb(tx), context.actor, input) };
  },

  async MOVE_DEAL_STAGE(tx, params, context) {
    const input = updateDealInput.parse({ id: params.dealId, stageId: params.stageId });
    return { output: await updateDeal(asDb(tx), context.actor, input) };
  },

  async CREATE_TASK(tx, params, context) {
    const linked =
      typeof params.recordId === 'string' && params.recordId !== '' ? params.recordId : context.recordId;
    let dueAt = params.dueAt;
    if (params.dueInDays !== undefined && params.dueInDays !== null && params.dueInDays !== '') {
      const days = Number(params.dueInDays);
      if (!Number.isFinite(days))
        throw new StepError(`dueInDays must be a number, got ${String(params.dueInDays)}`, true);
      dueAt = new Date(context.now.getTime() + days * 86_400_000).toISOString();
    }
    const input = createTaskInput.parse({
      ...present(params, ['title', 'assigneeId', 'priority']),
      ...(params.taskType ? { type: params.taskType } : {}),
      ...(dueAt ? { dueAt } : {}),
      ...(linked ? { recordId: linked } : {}),
    });
    return { output: await createTask(asDb(tx), context.actor, input) };
  },
};
