import type { Executor } from '@crm/db';
import { sql } from 'drizzle-orm';

/**
 * Queues the `run_job` job of a job, in the caller's transaction: it runs once that commits,
 * or `afterSeconds` later. One pending queue job per job (its key), so queueing again
 * replaces rather than doubles it.
 */
export async function queueJob(
  tx: Executor,
  job: { workspaceId: string; id: string },
  afterSeconds = 0,
): Promise<void> {
  await tx.execute(sql`
    select graphile_worker.add_job('run_job',
      json_build_object('jobId', ${job.id}::text, 'workspaceId', ${job.workspaceId}::text),
      run_at := now() + make_interval(secs => ${afterSeconds}),
      max_attempts := 25, job_key := ${`job:${job.id}`}, job_key_mode := 'replace')`);
}
