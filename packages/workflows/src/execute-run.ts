import type { Database } from '@crm/db';
import { isSharded } from '@crm/db';
import {
  type Actor,
  capturedBecause,
  conditionOperators,
  queueRunJob,
  type RowRef,
  type RunAction,
  renderValue,
  type StepRecord,
  sandboxPolicyOf,
  sandboxSends,
} from '@crm/domain';
import { runCode } from '@crm/sandbox';
import { evaluateCondition, evaluateExpression } from './condition.ts';
import { endRun } from './end-run.ts';
import { StepError, toStepError } from './errors.ts';
import { type HttpActionOptions, runHttpAction } from './http-action.ts';
import { loopItemsOf } from './loop-items.ts';
import { type Next, nextStep, stepOutputs } from './plan.ts';
import { recordActions, type StepResult } from './record-actions.ts';
import { MAX_STEP_ATTEMPTS, type StepRetryPolicy, stepRetryDelayMs } from './retry.ts';
import { buildScope, loadRunWithActor } from './run-context.ts';
import { LostRace, markAsWorkflows, markRunning, type RunState, save } from './save-run.ts';
import { runApproval, runDelay } from './waits.ts';

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
        return await runDelay({ db, sharded, state, actor, base, params, scopeOf, now });
      case 'APPROVAL':
        return await runApproval({ db, sharded, state, actor, base, params, scopeOf, now });
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
        // A sandbox keeps a request to a URL it does not allow: the step shows it (its input)
        // and that it was captured, and the run goes on (docs/operations.md, "Sandboxes").
        const url = typeof rendered.url === 'string' ? rendered.url : '';
        if (!sandboxSends(await sandboxPolicyOf(db, actor.workspaceId), url)) {
          const output = { captured: true, message: capturedBecause(url) };
          await save(db, sharded, state, { step: succeeded({ output }, input) });
          return 'next';
        }
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

/** The run's actor for one step: its changes' `requestId` is `<runId>:<path>`. */
function stepActor(actor: Actor, requestId: string): Actor {
  return actor.provenance ? { ...actor, provenance: { ...actor.provenance, requestId } } : actor;
}
