import { type Database, type Executor, isSharded, nowIn } from '@crm/db';
import type { RunStep } from '@crm/db/schema';
import {
  type Actor,
  conditionOperators,
  missing,
  pendingStep,
  type RowRef,
  type RunRow,
  renderValue,
} from '@crm/domain';
import { sql } from 'drizzle-orm';
import { evaluateCondition } from './condition.ts';
import { StepError, toStepError } from './errors.ts';
import { type HttpActionOptions, runHttpAction } from './http-action.ts';
import { recordActions, type StepResult } from './record-actions.ts';
import { MAX_STEP_ATTEMPTS, type StepRetryPolicy, stepRetryDelayMs } from './retry.ts';
import { buildScope, loadRunWithActor } from './run-context.ts';

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

export type RunOutcome = 'gone' | 'finished' | 'retry-scheduled' | 'continued';

/** Another worker recorded this step first (a released job ran twice); this one stops. */
class LostRace extends Error {}

/**
 * Executes a run from its next step (the `run_workflow` job). Each step's result is stored as
 * soon as it is known — for steps that change CRM data, in the same transaction as the change
 * — so a run resumed after a crash or a retry never repeats a step that succeeded. A failing
 * step is retried with backoff by a later job (5 attempts), then the run fails with the reason.
 */
export async function executeRun(db: Database, ref: RowRef, options: EngineOptions): Promise<RunOutcome> {
  const started = Date.now();
  const budget = options.jobBudgetMs ?? 30_000;
  const sharded = await isSharded(db);
  for (;;) {
    const loaded = await loadRunWithActor(db, ref);
    if (!loaded) return 'gone';
    const { run, actor } = loaded;
    if (run.status === 'SUCCEEDED' || run.status === 'FAILED') return 'finished';
    if (run.nextStep >= run.actions.length) {
      noteEnd(options, await saveProgress(db, sharded, run, { steps: run.steps, status: 'SUCCEEDED' }));
      return 'finished';
    }
    if (!actor) {
      const ended = await saveProgress(db, sharded, run, {
        steps: run.steps,
        status: 'FAILED',
        error: 'The workspace has no member left to act as',
      });
      noteEnd(options, ended);
      return 'finished';
    }
    if (Date.now() - started > budget) {
      await queueContinuation(db, run, 0);
      return 'continued';
    }
    const outcome = await executeStep(db, sharded, run, actor, options);
    if (outcome !== 'next') return outcome;
  }
}

function stepsWith(run: RunRow, index: number, step: RunStep, rest?: 'SKIPPED'): RunStep[] {
  const steps = run.actions.map((action, i) => run.steps[i] ?? pendingStep(i, String(action.type)));
  steps[index] = step;
  if (rest) {
    for (let i = index + 1; i < steps.length; i++)
      steps[i] = { ...(steps[i] ?? missing('steps[i]')), status: rest };
  }
  return steps;
}

async function executeStep(
  db: Database,
  sharded: boolean,
  run: RunRow,
  actor: Actor,
  options: EngineOptions,
): Promise<'next' | RunOutcome> {
  const index = run.nextStep;
  const { type, ...params } = (run.actions[index] ?? missing('run.actions[index]')) as {
    type: string;
  } & Record<string, unknown>;
  const attempts = (run.steps[index]?.attempts ?? 0) + 1;
  const startedAt = new Date();
  let input: unknown = null;
  // The run shows RUNNING (and when it started) while a call that may take seconds is made;
  // other steps record their result, and RUNNING, in the one statement that ends them.
  if (run.status === 'QUEUED' && type === 'HTTP_REQUEST') {
    await db.execute(
      sql`update workflow_runs set status = 'RUNNING', started_at = coalesce(started_at, ${nowIn(sharded)}), updated_at = now()
           where workspace_id = ${run.workspaceId} and id = ${run.id} and status = 'QUEUED'`,
    );
  }
  const done = (result: StepResult): RunStep => ({
    index,
    action: type,
    status: 'SUCCEEDED',
    input,
    output: result.output ?? null,
    error: null,
    attempts,
    nextAttemptAt: null,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
  });
  try {
    const scope = await buildScope(db, run, actor, params);
    const rendered = renderValue(params, scope) as Record<string, unknown>;
    input = rendered;
    if (type === 'HTTP_REQUEST') {
      const result = await runHttpAction(rendered, options.http);
      noteEnd(
        options,
        await saveProgress(db, sharded, run, { steps: stepsWith(run, index, done(result)), advance: true }),
      );
    } else if (type === 'CONDITION') {
      const operator = rendered.operator as (typeof conditionOperators)[number];
      if (!conditionOperators.includes(operator))
        throw new StepError(`unknown operator ${String(operator)}`, true);
      const passed = evaluateCondition(rendered.left, operator, rendered.right);
      const steps = stepsWith(run, index, done({ output: { passed } }), passed ? undefined : 'SKIPPED');
      const saved = await saveProgress(db, sharded, run, {
        steps,
        advance: true,
        ...(passed ? {} : { status: 'SUCCEEDED' as const }),
      });
      noteEnd(options, saved);
      if (!passed) return 'finished';
    } else {
      const perform = recordActions[type];
      if (!perform) throw new StepError(`unknown action ${type}`, true);
      const saved = await db.transaction(async (tx) => {
        // Marks the changes of this transaction as a workflow's: they start no workflows.
        await tx.execute(sql`select set_config('crm.workflow_run', ${run.id}, true)`);
        const result = await perform(tx, rendered, { actor, recordId: run.contextRecordId, now: startedAt });
        return saveProgress(tx, sharded, run, {
          steps: stepsWith(run, index, done(result)),
          advance: true,
          contextRecordId: result.contextRecordId ?? null,
        });
      });
      noteEnd(options, saved);
    }
    return 'next';
  } catch (error) {
    if (error instanceof LostRace) return 'finished';
    const failure = toStepError(error);
    const last = failure.permanent || attempts >= MAX_STEP_ATTEMPTS;
    const delayMs = last ? 0 : stepRetryDelayMs(attempts, options.retry);
    const step: RunStep = {
      index,
      action: type,
      status: 'FAILED',
      input,
      output: null,
      error: failure.message,
      attempts,
      nextAttemptAt: last ? null : new Date(Date.now() + delayMs).toISOString(),
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
    };
    if (last) {
      const why = failure.permanent ? '' : ` after ${attempts} attempts`;
      const saved = await saveProgress(db, sharded, run, {
        steps: stepsWith(run, index, step, 'SKIPPED'),
        status: 'FAILED',
        error: `Step ${index} (${type}) failed${why}: ${failure.message}`,
      }).catch(ignoreLostRace);
      noteEnd(options, saved);
      return 'finished';
    }
    const scheduled = await db
      .transaction(async (tx) => {
        await saveProgress(tx, sharded, run, { steps: stepsWith(run, index, step) });
        await queueContinuation(tx, run, delayMs);
        return true;
      })
      .catch(ignoreLostRace);
    if (scheduled) options.observer?.retryScheduled(type);
    return 'retry-scheduled';
  }
}

function ignoreLostRace(error: unknown): undefined {
  if (!(error instanceof LostRace)) throw error;
  return undefined;
}

/** Tells the observer of a run this worker ended (a save that left it RUNNING, or lost, tells nothing). */
function noteEnd(options: EngineOptions, status: RunStatusAfterSave | undefined) {
  if (status === 'SUCCEEDED' || status === 'FAILED') options.observer?.ended(status);
}

type RunStatusAfterSave = 'RUNNING' | 'SUCCEEDED' | 'FAILED';

/**
 * Stores a run's progress, only if no other worker moved it on since it was read (the step
 * index is the version): otherwise LostRace, which rolls back the caller's transaction.
 */
async function saveProgress(
  tx: Executor,
  sharded: boolean,
  run: RunRow,
  change: {
    steps: RunStep[];
    advance?: boolean;
    status?: 'SUCCEEDED' | 'FAILED';
    error?: string;
    contextRecordId?: string | null;
  },
): Promise<RunStatusAfterSave> {
  const nextStep = change.advance ? run.nextStep + 1 : run.nextStep;
  const finished = change.status !== undefined || (change.advance === true && nextStep >= run.actions.length);
  const status = change.status ?? (finished ? 'SUCCEEDED' : 'RUNNING');
  const result = await tx.execute(sql`
    update workflow_runs
       set steps = ${JSON.stringify(change.steps)}::jsonb,
           next_step = ${nextStep},
           status = ${status},
           error = ${change.error ?? null},
           context_record_id = coalesce(${change.contextRecordId ?? null}, context_record_id),
           started_at = coalesce(started_at, ${nowIn(sharded)}),
           finished_at = ${finished ? sql`now()` : sql`null`},
           updated_at = now()
     where workspace_id = ${run.workspaceId} and id = ${run.id} and next_step = ${run.nextStep}
       and status in ('QUEUED', 'RUNNING')`);
  if (result.rowCount === 0) throw new LostRace();
  return status;
}

/** The run's next job: now (a continuation) or after a retry delay. */
async function queueContinuation(
  tx: Executor,
  run: Pick<RunRow, 'workspaceId' | 'id'>,
  delayMs: number,
): Promise<void> {
  await tx.execute(sql`
    select graphile_worker.add_job('run_workflow',
      json_build_object('runId', ${run.id}::text, 'workspaceId', ${run.workspaceId}::text),
      run_at := now() + make_interval(secs => ${delayMs / 1000}), max_attempts := 25)`);
}
