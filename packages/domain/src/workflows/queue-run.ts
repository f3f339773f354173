import type { Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
import { newId } from '../shared/ids.ts';

/** The job key of a run's next job: a run has at most one job waiting for it. */
export const runJobKey = (runId: string) => `run:${runId}`;

/**
 * Queues a run's next job for `at` (default now), under the run's job key: a job already
 * waiting for the run (a delay's end, an approval's timeout) is replaced by this one.
 */
export async function queueRunJob(
  tx: Executor,
  run: { workspaceId: string; id: string },
  at: Date | null = null,
): Promise<void> {
  await tx.execute(sql`
    select graphile_worker.add_job('run_workflow',
      json_build_object('runId', ${run.id}::text, 'workspaceId', ${run.workspaceId}::text),
      run_at := coalesce(${at?.toISOString() ?? null}::timestamptz, now()), max_attempts := 25,
      job_key := ${runJobKey(run.id)}, job_key_mode := 'replace')`);
}

export interface NewRun {
  workspaceId: string;
  workflowId: string;
  trigger: 'INCOMING_WEBHOOK' | 'EVENT' | 'SCHEDULE' | 'RERUN';
  input: unknown;
  recordId: string | null;
  actions: Record<string, unknown>[];
  rerunOf?: string | null;
  eventId?: string | null;
}

/**
 * Inserts a QUEUED run and queues the job that executes it, in the caller's transaction: a
 * run exists exactly when its job does. (A job that runs twice after a crash is harmless: the
 * engine advances a run only from the step it read.) An event starts a workflow at most
 * once: a second run for the same event is skipped (the returned id is then not stored).
 *
 * One statement on one server. `sharded` (from `isSharded`): a sharded database runs a
 * statement naming the workspace on the node that holds it, where the job queue is not, so
 * there the run is written first and its job queued by a second statement, on the
 * coordinator, when the run was written (docs/scaling.md).
 */
export async function queueRun(tx: Executor, run: NewRun, sharded: boolean): Promise<string> {
  const id = newId('run');
  const insert = sql`
      insert into workflow_runs (workspace_id, id, workflow_id, trigger, input, record_id, context_record_id, actions, rerun_of, event_id)
      values (${run.workspaceId}, ${id}, ${run.workflowId}, ${run.trigger}, ${JSON.stringify(run.input)}::jsonb,
              ${run.recordId}, ${run.recordId}, ${JSON.stringify(run.actions)}::jsonb, ${run.rerunOf ?? null}, ${run.eventId ?? null})
      on conflict (workspace_id, workflow_id, event_id) where event_id is not null do nothing
      returning workspace_id, id`;
  if (!sharded) {
    await tx.execute(sql`
    with run as (${insert}
    )
    select graphile_worker.add_job('run_workflow', json_build_object('runId', run.id, 'workspaceId', run.workspace_id),
      max_attempts := 25, job_key := 'run:' || run.id, job_key_mode := 'replace')
    from run`);
    return id;
  }
  const written = await tx.execute(insert);
  if (written.rows.length > 0) await queueRunJob(tx, { workspaceId: run.workspaceId, id });
  return id;
}
