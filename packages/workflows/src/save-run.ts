import { type Database, type Executor, nowIn, runNamedSql } from '@crm/db';
import type { RunAction, RunRow, StepRecord } from '@crm/domain';
import { sql } from 'drizzle-orm';
import { type LoopProgress, nextStep } from './plan.ts';
import type { RunWithActor } from './run-context.ts';

/** Another worker recorded this run's progress first (a released job ran twice); this one stops. */
export class LostRace extends Error {}

/** What a job knows of its run while it executes it: the row, who it acts as, its steps. */
export interface RunState extends RunWithActor {
  /** How far the job has seen the run's loops done (`nextStep`). */
  progress: LoopProgress;
  /** The order the next new step record takes. */
  nextSeq: number;
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

/** Marks the changes of this transaction as a workflow run's step: they start no workflows. */
export async function markAsWorkflows(tx: Executor, runId: string, path: string): Promise<void> {
  await tx.execute(sql`select set_config('crm.workflow_run', ${`${runId}:${path}`}, true)`);
}

/** Shows the run RUNNING (and when it started) before a step that may take seconds. */
export async function markRunning(db: Database, sharded: boolean, run: RunRow): Promise<void> {
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
export async function save(
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
