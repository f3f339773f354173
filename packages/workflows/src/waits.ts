import type { Database, Executor } from '@crm/db';
import {
  type Actor,
  createTask,
  createTaskInput,
  queueRunJob,
  renderValue,
  resumeAfter,
  resumeUntil,
  type StepRecord,
} from '@crm/domain';
import { StepError } from './errors.ts';
import type { RunOutcome } from './execute-run.ts';
import type { buildScope } from './run-context.ts';
import { markAsWorkflows, type RunState, save } from './save-run.ts';

/** What the templates of the step being run can read (`buildScope`), built when asked. */
type ScopeOf = (always?: boolean) => ReturnType<typeof buildScope>;

/** A waiting step's call: the run, the step's record so far and its parameters. */
export interface StepCall {
  db: Database;
  sharded: boolean;
  state: RunState;
  /** Who the step acts as (the run's actor, with the step's path). */
  actor: Actor;
  base: StepRecord;
  params: Record<string, unknown>;
  scopeOf: ScopeOf;
  now: Date;
}

/** DELAY: waits until its moment (a job for then, no worker held), then succeeds. */
export async function runDelay(call: StepCall): Promise<'next' | RunOutcome> {
  const { db, sharded, state, base, params, scopeOf, now } = call;
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
export async function runApproval(call: StepCall): Promise<'next' | RunOutcome> {
  const { db, sharded, state, actor, base, params, scopeOf, now } = call;
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
