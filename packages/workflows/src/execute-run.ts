import { type Database, type Executor, isSharded, nowIn, runNamedSql } from '@crm/db';
import {
  type Actor,
  appendEvent,
  conditionOperators,
  createTask,
  createTaskInput,
  DomainError,
  MAX_LOOP_ITEMS,
  queryRecords,
  queryRecordsInput,
  queueRunJob,
  type RowRef,
  type RunAction,
  type RunRow,
  renderValue,
  resumeAfter,
  resumeUntil,
  type StepRecord,
} from '@crm/domain';
import { runCode } from '@crm/sandbox';
import { sql } from 'drizzle-orm';
import { evaluateCondition, evaluateExpression } from './condition.ts';
import { StepError, toStepError } from './errors.ts';
import { type HttpActionOptions, runHttpAction } from './http-action.ts';
import { type LoopProgress, type Next, nextStep, stepOutputs } from './plan.ts';
import { recordActions, type StepResult } from './record-actions.ts';
import { MAX_STEP_ATTEMPTS, type StepRetryPolicy, stepRetryDelayMs } from './retry.ts';
import { buildScope, loadRunWithActor, type RunWithActor } from './run-context.ts';

export interface EngineOptions {
  http: HttpActionOptions;
  retry: StepRetryPolicy;
  /**
   * A job runs steps for at most this long, then queues its continuation: jobs stay short, so
   * a job held by a worker that died is recognised and released quickly.
   */
  jobBudgetMs?: number;
  /** Told when a run ends and when a failed step's retry is scheduled (metrics). */
  observer?: RunObserver;
}

export interface RunObserver {
  /** This worker recorded the run's end, with this status. */
  ended(status: 'SUCCEEDED' | 'FAILED'): void;
  /** A step of this action type failed and another attempt was scheduled. */
  retryScheduled(action: string): void;
}

export type RunOutcome = 'gone' | 'finished' | 'retry-scheduled' | 'continued' | 'waiting';

/** Another worker recorded this run's progress first (a released job ran twice); this one stops. */
class LostRace extends Error {}

/** What a job knows of its run while it executes it: the row, who it acts as, its steps. */
interface RunState extends RunWithActor {
  /** How far the job has seen the run's loops done (`nextStep`). */
  progress: LoopProgress;
  /** The order the next new step record takes. */
  nextSeq: number;
}

const ENDED = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

/**
 * Executes a run from where its records say it is (the `run_workflow` job; docs/workflows.md,
 * "Runs"). Each step's result is stored as soon as it is known — for steps that change CRM
 * data, in the same transaction as the change — so a run resumed after a crash, a retry or a
 * wait never repeats a step that succeeded. A failing step is retried with backoff by a later
 * job (5 attempts), then the run fails with the reason. A DELAY or an APPROVAL ends the job:
 * the run waits as a row and one job for the moment it goes on, holding no worker.
 */
export async function executeRun(db: Database, ref: RowRef, options: EngineOptions): Promise<RunOutcome> {
  const started = Date.now();
  const budget = options.jobBudgetMs ?? 30_000;
  const sharded = await isSharded(db);
  const loaded = await loadRunWithActor(db, ref);
  if (!loaded) return 'gone';
  let nextSeq = 0;
  for (const record of loaded.records.values()) nextSeq = Math.max(nextSeq, record.seq + 1);
  const state: RunState = { ...loaded, progress: new Map(), nextSeq };
  try {
    for (;;) {
      if (ENDED.has(state.run.status)) return 'finished';
      if (!state.actor) {
        await endRun(db, sharded, state, 'FAILED', 'The workspace has no member left to act as');
        if (state.run.status === 'FAILED') options.observer?.ended('FAILED');
        return 'finished';
      }
      if (Date.now() - started > budget) {
        await queueRunJob(db, state.run);
        return 'continued';
      }
      const outcome = await advance(db, sharded, state, state.actor, options);
      // Told once what this job ended the run with, after the transaction that did committed.
      const status = state.run.status;
      if (status === 'SUCCEEDED' || status === 'FAILED') options.observer?.ended(status);
      if (outcome !== 'next') return outcome;
    }
  } catch (error) {
    if (error instanceof LostRace) return 'finished';
    throw error;
  }
}

/** Does the next thing the run's records call for (`nextStep`). */
async function advance(
  db: Database,
  sharded: boolean,
  state: RunState,
  actor: Actor,
  options: EngineOptions,
): Promise<'next' | RunOutcome> {
  const next = nextStep(state.run.actions as RunAction[], state.records, state.progress);
  switch (next.kind) {
    case 'done':
    case 'stopped':
      await endRun(db, sharded, state, 'SUCCEEDED');
      return 'finished';
    case 'failed': {
      const { path, action, record } = next;
      const label = typeof action.name === 'string' ? `${action.type} "${action.name}"` : action.type;
      const why = record.attempts >= MAX_STEP_ATTEMPTS ? ` after ${record.attempts} attempts` : '';
      await endRun(db, sharded, state, 'FAILED', `Step ${path} (${label}) failed${why}: ${record.error}`, {
        path,
        name: typeof action.name === 'string' ? action.name : null,
        error: record.error,
      });
      return 'finished';
    }
    case 'loop-done':
      await save(db, sharded, state, {
        step: {
          ...next.record,
          status: 'SUCCEEDED',
          output: { count: next.count, failed: next.failed },
          finishedAt: new Date().toISOString(),
        },
      });
      return 'next';
    case 'step':
      return runStep(db, sharded, state, actor, next, options);
  }
}

/** A step's record as it starts: a new one, or the one it had (a retry, a wait going on). */
function recordFor(state: RunState, next: Extract<Next, { kind: 'step' }>, now: Date): StepRecord {
  const { path, action, record } = next;
  if (record)
    return { ...record, attempts: record.status === 'FAILED' ? record.attempts + 1 : record.attempts };
  return {
    path,
    name: typeof action.name === 'string' ? action.name : null,
    action: action.type,
    status: 'RUNNING',
    input: null,
    output: null,
    error: null,
    attempts: 1,
    nextAttemptAt: null,
    resumeAt: null,
    startedAt: now.toISOString(),
    finishedAt: null,
    seq: state.nextSeq,
  };
}

async function runStep(
  db: Database,
  sharded: boolean,
  state: RunState,
  runActor: Actor,
  next: Extract<Next, { kind: 'step' }>,
  options: EngineOptions,
): Promise<'next' | RunOutcome> {
  const { run } = state;
  const { path, action, loop } = next;
  const { type, name: _name, ...params } = action;
  // What the step changes carries the run and the step's path (docs/workflows.md, "Runs").
  const actor = stepActor(runActor, `${run.id}:${path}`);
  const now = new Date();
  const base = recordFor(state, next, now);
  const succeeded = (result: StepResult, input: unknown): StepRecord => ({
    ...base,
    status: 'SUCCEEDED',
    input,
    output: result.output ?? null,
    error: null,
    nextAttemptAt: null,
    finishedAt: new Date().toISOString(),
  });
  let input: unknown = base.input;
  try {
    const steps = stepOutputs(run.actions as RunAction[], state.records, path);
    const scopeOf = (always = false) => buildScope(db, run, actor, { params, always }, steps, loop);
    switch (type) {
      case 'DELAY':
        return await runDelay(db, sharded, state, base, params, scopeOf, now);
      case 'APPROVAL':
        return await runApproval(db, sharded, state, actor, base, params, scopeOf, now);
      case 'CODE': {
        const scope = await scopeOf(true);
        input = { source: params.source };
        const result = await runCode(String(params.source), {
          trigger: scope.trigger,
          record: scope.record,
          steps: scope.steps,
          item: loop?.item ?? null,
          loop: loop ? { index: loop.index } : null,
        });
        if (!result.ok) {
          const line = result.error.line ? ` (line ${result.error.line})` : '';
          throw new StepError(`${result.error.message}${line}`, true);
        }
        await save(db, sharded, state, { step: succeeded({ output: result.output }, input) });
        return 'next';
      }
      case 'FOR_EACH': {
        const rendered = renderValue(params, await scopeOf()) as Record<string, unknown>;
        const items = await loopItemsOf(db, actor, rendered);
        input = { items };
        const step: StepRecord =
          items.length === 0
            ? succeeded({ output: { count: 0, failed: 0 } }, input)
            : { ...base, status: 'RUNNING', input, error: null, nextAttemptAt: null };
        await save(db, sharded, state, { step });
        return 'next';
      }
      case 'BRANCH': {
        const rendered = renderValue(params, await scopeOf()) as Record<string, unknown>;
        input = rendered;
        const passed = evaluateExpression(rendered.if);
        await save(db, sharded, state, { step: succeeded({ output: { passed } }, input) });
        return 'next';
      }
      case 'CONDITION': {
        const rendered = renderValue(params, await scopeOf()) as Record<string, unknown>;
        input = rendered;
        const operator = rendered.operator as (typeof conditionOperators)[number];
        if (!conditionOperators.includes(operator))
          throw new StepError(`unknown operator ${String(operator)}`, true);
        const passed = evaluateCondition(rendered.left, operator, rendered.right);
        await save(db, sharded, state, { step: succeeded({ output: { passed } }, input) });
        return 'next';
      }
      case 'HTTP_REQUEST': {
        const rendered = renderValue(params, await scopeOf()) as Record<string, unknown>;
        input = rendered;
        // The run shows RUNNING (and when it started) while a call that may take seconds is made.
        if (run.status === 'QUEUED') await markRunning(db, sharded, run);
        const result = await runHttpAction(rendered, options.http, `${run.id}:${path}`);
        await save(db, sharded, state, { step: succeeded(result, input) });
        return 'next';
      }
      default: {
        const perform = recordActions[type];
        if (!perform) throw new StepError(`unknown action ${type}`, true);
        const rendered = renderValue(params, await scopeOf()) as Record<string, unknown>;
        input = rendered;
        await db.transaction(async (tx) => {
          await markAsWorkflows(tx, run.id, path);
          const result = await perform(tx, rendered, { actor, recordId: run.contextRecordId, now });
          await save(tx, sharded, state, {
            step: succeeded(result, input),
            contextRecordId: result.contextRecordId ?? null,
          });
        });
        return 'next';
      }
    }
  } catch (error) {
    if (error instanceof LostRace) throw error;
    const failure = toStepError(error);
    const last = failure.permanent || base.attempts >= MAX_STEP_ATTEMPTS;
    const delayMs = last ? 0 : stepRetryDelayMs(base.attempts, options.retry);
    const step: StepRecord = {
      ...base,
      status: 'FAILED',
      input,
      output: null,
      error: failure.message,
      nextAttemptAt: last ? null : new Date(Date.now() + delayMs).toISOString(),
      resumeAt: null,
      finishedAt: new Date().toISOString(),
    };
    if (last) {
      // Recorded as failed for good; the next step of the plan fails the run, or, in a loop
      // that goes on after errors, moves to the next item.
      await save(db, sharded, state, { step });
      return 'next';
    }
    await db.transaction(async (tx) => {
      await save(tx, sharded, state, { step });
      await queueRunJob(tx, run, new Date(Date.now() + delayMs));
    });
    options.observer?.retryScheduled(type);
    return 'retry-scheduled';
  }
}

/** The status the run has once `step` is recorded: SUCCEEDED when nothing is left to run. */
function statusAfter(state: RunState, step: StepRecord): 'RUNNING' | 'SUCCEEDED' {
  if (step.status !== 'SUCCEEDED') return 'RUNNING';
  const before = state.records.get(step.path);
  state.records.set(step.path, step);
  try {
    // On a copy of what the job knows of its loops: the save may yet be rolled back.
    const progress: LoopProgress = new Map([...state.progress].map(([path, seen]) => [path, { ...seen }]));
    const next = nextStep(state.run.actions as RunAction[], state.records, progress);
    return next.kind === 'done' || next.kind === 'stopped' ? 'SUCCEEDED' : 'RUNNING';
  } finally {
    if (before) state.records.set(step.path, before);
    else state.records.delete(step.path);
  }
}

/** The run's actor for one step: its changes' `requestId` is `<runId>:<path>`. */
function stepActor(actor: Actor, requestId: string): Actor {
  return actor.provenance ? { ...actor, provenance: { ...actor.provenance, requestId } } : actor;
}

/** Marks the changes of this transaction as a workflow run's step: they start no workflows. */
async function markAsWorkflows(tx: Executor, runId: string, path: string): Promise<void> {
  await tx.execute(sql`select set_config('crm.workflow_run', ${`${runId}:${path}`}, true)`);
}

type ScopeOf = (always?: boolean) => ReturnType<typeof buildScope>;

/** DELAY: waits until its moment (a job for then, no worker held), then succeeds. */
async function runDelay(
  db: Database,
  sharded: boolean,
  state: RunState,
  base: StepRecord,
  params: Record<string, unknown>,
  scopeOf: ScopeOf,
  now: Date,
): Promise<'next' | RunOutcome> {
  let input = base.input;
  let resumeAt = base.status === 'WAITING' && base.resumeAt ? new Date(base.resumeAt) : null;
  if (!resumeAt) {
    const rendered = renderValue(params, await scopeOf()) as Record<string, unknown>;
    input = rendered;
    resumeAt = delayEnd(rendered, now);
  }
  if (resumeAt.getTime() <= now.getTime()) {
    await save(db, sharded, state, {
      step: {
        ...base,
        status: 'SUCCEEDED',
        input,
        output: { resumeAt: resumeAt.toISOString() },
        error: null,
        nextAttemptAt: null,
        resumeAt: resumeAt.toISOString(),
        finishedAt: new Date().toISOString(),
      },
    });
    return 'next';
  }
  await wait(
    db,
    sharded,
    state,
    { ...base, status: 'WAITING', input, resumeAt: resumeAt.toISOString() },
    resumeAt,
  );
  return 'waiting';
}

/** The moment a rendered DELAY ends: `for` after now, or `until` (with `at` and `timezone`). */
function delayEnd(rendered: Record<string, unknown>, now: Date): Date {
  if (typeof rendered.for === 'string') return resumeAfter(rendered.for, now);
  const until = rendered.until;
  if (typeof until !== 'string' || until === '')
    throw new StepError('until rendered to nothing: it must give an instant or a date', true);
  const result = resumeUntil(
    until,
    typeof rendered.at === 'string' ? rendered.at : undefined,
    typeof rendered.timezone === 'string' ? rendered.timezone : undefined,
    now,
  );
  if ('error' in result) throw new StepError(result.error, true);
  return result.resumeAt;
}

/**
 * APPROVAL: the first time, creates the task and waits (until its timeout, if any); an answer
 * (`POST /runs/{id}/approve` or `/reject`) records the output and queues the run. Run again
 * while waiting, it is the timeout: REJECT or APPROVE record that answer, FAIL fails the step.
 */
async function runApproval(
  db: Database,
  sharded: boolean,
  state: RunState,
  actor: Actor,
  base: StepRecord,
  params: Record<string, unknown>,
  scopeOf: ScopeOf,
  now: Date,
): Promise<'next' | RunOutcome> {
  if (base.status === 'WAITING') {
    const timeoutAt = base.resumeAt ? new Date(base.resumeAt) : null;
    if (!timeoutAt || timeoutAt.getTime() > now.getTime()) {
      // An early job (a continuation queued before the wait): the wait goes on.
      await wait(db, sharded, state, base, timeoutAt);
      return 'waiting';
    }
    const onTimeout = typeof params.onTimeout === 'string' ? params.onTimeout : 'REJECT';
    if (onTimeout === 'FAIL')
      throw new StepError(`no answer before the timeout (${String(params.timeout)})`, true);
    await save(db, sharded, state, {
      step: {
        ...base,
        status: 'SUCCEEDED',
        output: {
          ...(base.output as Record<string, unknown>),
          approved: onTimeout === 'APPROVE',
          by: null,
          comment: `No answer before the timeout (${String(params.timeout)})`,
          at: now.toISOString(),
          timedOut: true,
        },
        finishedAt: now.toISOString(),
      },
    });
    return 'next';
  }
  const rendered = renderValue(params, await scopeOf()) as Record<string, unknown>;
  const timeoutAt = typeof rendered.timeout === 'string' ? resumeAfter(rendered.timeout, now) : null;
  await db.transaction(async (tx) => {
    await markAsWorkflows(tx, state.run.id, base.path);
    const task = await createTask(
      tx as unknown as Database,
      actor,
      createTaskInput.parse({
        title:
          typeof rendered.title === 'string' && rendered.title !== ''
            ? rendered.title
            : `Approve: ${state.workflow.name}`,
        assigneeId: rendered.assigneeId,
        type: 'TODO',
        ...(state.run.contextRecordId ? { recordId: state.run.contextRecordId } : {}),
      }),
    );
    await wait(
      tx,
      sharded,
      state,
      {
        ...base,
        status: 'WAITING',
        input: rendered,
        output: { taskId: task.id, assigneeId: rendered.assigneeId },
        resumeAt: timeoutAt?.toISOString() ?? null,
      },
      timeoutAt,
    );
  });
  return 'waiting';
}

/** Records a waiting step and the run WAITING until `resumeAt` (a job then), or until answered. */
async function wait(
  tx: Executor,
  sharded: boolean,
  state: RunState,
  step: StepRecord,
  resumeAt: Date | null,
) {
  await save(tx, sharded, state, { step, status: 'WAITING', resumeAt });
  if (resumeAt) await queueRunJob(tx, state.run, resumeAt);
}

/** The items of a rendered FOR_EACH: its list, or the records of its query (at most 1,000). */
async function loopItemsOf(
  db: Database,
  actor: Actor,
  rendered: Record<string, unknown>,
): Promise<unknown[]> {
  if (rendered.records !== undefined) {
    const query = queryRecordsInput.parse({ ...(rendered.records as object), pageSize: 200, count: true });
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await queryRecords(db, actor, { ...query, ...(cursor ? { cursor } : {}) });
      const total = (page.meta as { total?: number }).total;
      if (total !== undefined && total > MAX_LOOP_ITEMS)
        throw new StepError(`FOR_EACH would go through ${total} records; at most ${MAX_LOOP_ITEMS}`, true);
      items.push(...page.data);
      const next = (page.meta as { nextCursor?: string | null }).nextCursor;
      if (!next || items.length >= MAX_LOOP_ITEMS) return items.slice(0, MAX_LOOP_ITEMS);
      cursor = next;
    }
  }
  const items = rendered.items;
  if (!Array.isArray(items)) {
    const got = items === null || items === undefined ? 'nothing' : typeof items;
    throw new StepError(`items rendered to ${got}, not a list`, true);
  }
  if (items.length > MAX_LOOP_ITEMS)
    throw new StepError(`FOR_EACH would go through ${items.length} items; at most ${MAX_LOOP_ITEMS}`, true);
  return items;
}

/**
 * Ends a run (SUCCEEDED or FAILED). A failure writes the `workflow.run_failed` event (to
 * webhooks, the event feed and workflows listening for it, never the same workflow) and a task
 * for each member of `notifyOnFailure`, in the transaction that records it.
 */
async function endRun(
  db: Database,
  sharded: boolean,
  state: RunState,
  status: 'SUCCEEDED' | 'FAILED',
  error?: string,
  failedStep?: { path: string; name: string | null; error: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const result = await save(tx, sharded, state, { status, ...(error ? { error } : {}) });
    if (status === 'FAILED' && state.actor && result === 'FAILED')
      await announceFailure(tx, state, state.actor, error ?? '', failedStep);
  });
}

async function announceFailure(
  tx: Executor,
  state: RunState,
  actor: Actor,
  error: string,
  step: { path: string; name: string | null; error: string | null } | undefined,
): Promise<void> {
  const { run, workflow } = state;
  // A run started by another run's failure starts no workflow when it fails in turn: two
  // workflows that watch each other's failures cannot start each other forever.
  const input = run.input as { event?: unknown } | null;
  if (run.trigger === 'EVENT' && input?.event === 'workflow.run_failed')
    await markAsWorkflows(tx, run.id, 'failed');
  await appendEvent(tx, actor, 'workflow.run_failed', {
    workflowId: run.workflowId,
    workflowName: workflow.name,
    runId: run.id,
    recordId: run.contextRecordId,
    step: step ? { path: step.path, name: step.name } : null,
    error: step?.error ?? error,
  });
  for (const userId of workflow.notifyOnFailure) {
    try {
      await createTask(
        tx as unknown as Database,
        actor,
        createTaskInput.parse({
          title: `Automation “${workflow.name}” failed: ${error}`.slice(0, 500),
          assigneeId: userId,
          type: 'TODO',
          priority: 'HIGH',
        }),
      );
    } catch (refused) {
      // A member who has left the workspace is not told; the others are.
      if (!(refused instanceof DomainError)) throw refused;
    }
  }
}

async function markRunning(db: Database, sharded: boolean, run: RunRow): Promise<void> {
  await db.execute(
    sql`update workflow_runs set status = 'RUNNING', started_at = coalesce(started_at, ${nowIn(sharded)}), updated_at = now()
         where workspace_id = ${run.workspaceId} and id = ${run.id} and status = 'QUEUED'`,
  );
  run.status = 'RUNNING';
}

type SavedStatus = RunRow['status'];

/**
 * Stores a run's progress — a step's record, the run's status — only if no other worker moved
 * the run on since this one read it (its version, `next_step`, is still the one read):
 * otherwise LostRace, which rolls back the caller's transaction. A run cancelled meanwhile
 * keeps CANCELLED: the step in flight is recorded, and the run goes no further.
 */
async function save(
  tx: Executor,
  sharded: boolean,
  state: RunState,
  change: {
    step?: StepRecord;
    status?: 'RUNNING' | 'WAITING' | 'SUCCEEDED' | 'FAILED';
    error?: string;
    contextRecordId?: string | null;
    resumeAt?: Date | null;
  },
): Promise<SavedStatus> {
  const { run } = state;
  // A step that leaves nothing to run ends the run in the same statement.
  const status = change.status ?? (change.step ? statusAfter(state, change.step) : 'RUNNING');
  const ended = status === 'SUCCEEDED' || status === 'FAILED';
  const update = sql`
    update workflow_runs
       set next_step = next_step + 1,
           status = case when status = 'CANCELLED' then status else ${status} end,
           error = case when status = 'CANCELLED' then error else ${change.error ?? null} end,
           context_record_id = coalesce(${change.contextRecordId ?? null}, context_record_id),
           resume_at = ${change.resumeAt?.toISOString() ?? null},
           started_at = coalesce(started_at, ${nowIn(sharded)}),
           finished_at = case when status = 'CANCELLED' then finished_at when ${ended} then ${nowIn(sharded)} end,
           updated_at = now()
     where workspace_id = ${run.workspaceId} and id = ${run.id} and next_step = ${run.nextStep}
       and status in ('QUEUED', 'RUNNING', 'WAITING', 'CANCELLED')
     returning status, context_record_id`;
  // The run and its step in one statement: both are saved, or neither. Every step runs it, so
  // it goes by name, planned once per connection; its text varies only by these two choices.
  const name = `save_workflow_run${change.step ? '_step' : ''}${sharded ? '_sharded' : ''}`;
  const [row] = await runNamedSql<{ status: SavedStatus; context_record_id: string | null }>(
    tx,
    name,
    change.step
      ? sql`with saved as (${update}), step as (${stepWrite(run, change.step)}) select status, context_record_id from saved`
      : update,
  );
  if (!row) throw new LostRace();
  run.nextStep += 1;
  run.status = row.status;
  run.contextRecordId = row.context_record_id;
  if (change.step) {
    if (!state.records.has(change.step.path)) state.nextSeq = Math.max(state.nextSeq, change.step.seq + 1);
    state.records.set(change.step.path, change.step);
  }
  return row.status;
}

/** The insert (or update) of a step's record, done only when the CTE `saved` saved the run. */
function stepWrite(run: RunRow, step: StepRecord) {
  return sql`
    insert into workflow_run_steps (workspace_id, run_id, path, seq, name, action, status, input, output,
                                    error, attempts, next_attempt_at, resume_at, started_at, finished_at)
    select ${run.workspaceId}, ${run.id}, ${step.path}, ${step.seq}, ${step.name}, ${step.action}, ${step.status},
           ${JSON.stringify(step.input ?? null)}::jsonb, ${JSON.stringify(step.output ?? null)}::jsonb,
           ${step.error}, ${step.attempts}, ${step.nextAttemptAt}::timestamptz, ${step.resumeAt}::timestamptz,
           ${step.startedAt}::timestamptz, ${step.finishedAt}::timestamptz
      from saved
    on conflict (workspace_id, run_id, path) do update
       set status = excluded.status, input = excluded.input, output = excluded.output, error = excluded.error,
           attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at,
           resume_at = excluded.resume_at, started_at = excluded.started_at, finished_at = excluded.finished_at
    returning 1`;
}
