import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';

/** Runs (and their step records) are kept this long (docs/workflows.md, "Runs"). */
export const RUN_RETENTION_DAYS = 30;

/** Drops runs past their 30 days. */
export async function pruneRuns(db: Database, olderThanDays = RUN_RETENTION_DAYS): Promise<number> {
  const result = await db.execute(
    sql`delete from workflow_runs where created_at < now() - make_interval(days => ${olderThanDays})`,
  );
  return result.rowCount ?? 0;
}
