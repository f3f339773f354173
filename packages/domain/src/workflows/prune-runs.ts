import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';

/** Runs (and their step records) are kept this long (docs/workflows.md, "Runs"). */
const RUN_RETENTION_DAYS = 30;

/**
 * Drops runs that ended more than 30 days ago, with their steps. A run still waiting (a DELAY
 * may last a year) is kept; one that has not ended 400 days after it was queued is dropped.
 */
export async function pruneRuns(db: Database, olderThanDays = RUN_RETENTION_DAYS): Promise<number> {
  const result = await db.execute(
    sql`delete from workflow_runs
         where created_at < now() - make_interval(days => ${olderThanDays})
           and (coalesce(finished_at, created_at) < now() - make_interval(days => ${olderThanDays})
                and status in ('SUCCEEDED', 'FAILED', 'CANCELLED')
                or created_at < now() - interval '400 days')`,
  );
  return result.rowCount ?? 0;
}
