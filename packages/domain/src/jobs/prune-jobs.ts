import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';

/** How long an ended job (and its results) is kept. */
const JOB_RETENTION_DAYS = 30;

/**
 * The hourly `prune_jobs` task (docs/operations.md, "Jobs' files"): drops the files of exports
 * whose 24 hours are over, and the jobs that ended over 30 days ago with all their files (a
 * job that never got its file counts as ended a day after it was made). Answers the jobs
 * dropped.
 */
export async function pruneJobs(db: Database, olderThanDays = JOB_RETENTION_DAYS): Promise<number> {
  await db.execute(sql`
    delete from job_files f using jobs j
     where f.workspace_id = j.workspace_id and f.job_id = j.id and f.kind = 'output'
       and j.expires_at < now()`);
  const dropped = await db.execute(sql`
    delete from jobs
     where (status in ('SUCCEEDED', 'FAILED', 'CANCELLED')
            and coalesce(finished_at, created_at) < now() - make_interval(days => ${olderThanDays}))
        or (status = 'AWAITING_FILE' and created_at < now() - interval '1 day')`);
  return dropped.rowCount ?? 0;
}
