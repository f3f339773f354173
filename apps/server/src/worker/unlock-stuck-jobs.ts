import type { JobHelpers } from 'graphile-worker';

/**
 * Tasks that finish in seconds (a workflow job stops after 30 s of steps, plus at most one
 * 15 s HTTP call; a job's queue job after 30 s of chunks); one still locked after this long
 * belongs to a worker that died.
 */
const SHORT_TASKS = ['start_event_workflows', 'run_workflow', 'run_job'];
const STUCK_AFTER_SECONDS = 120;

/**
 * graphile-worker leaves a killed worker's jobs locked for hours. A workflow run, or the job
 * that starts an event's workflows, must not wait that long (a worker killed mid-run does not
 * strand it), so once a minute the workers holding a short task for over two minutes are
 * declared dead and their jobs released for the others. The caller's own worker is never
 * released. (Webhook deliveries are no jobs: a dead worker's claim on them runs out by itself.)
 */
export async function unlockStuckJobs(helpers: JobHelpers): Promise<number> {
  return helpers.withPgClient(async (client) => {
    const stuck = await client.query<{ workers: string[] | null }>(
      `select array_agg(distinct locked_by) as workers from graphile_worker.jobs
        where locked_by is not null and locked_by <> $3
          and task_identifier = any($1::text[])
          and locked_at < now() - make_interval(secs => $2)`,
      [SHORT_TASKS, STUCK_AFTER_SECONDS, helpers.job.locked_by ?? ''],
    );
    const workers = stuck.rows[0]?.workers ?? [];
    if (workers.length === 0) return 0;
    await client.query('select graphile_worker.force_unlock_workers($1::text[])', [workers]);
    return workers.length;
  });
}
