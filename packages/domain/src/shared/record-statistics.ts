import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';

/**
 * Records an import writes, or the API creates, in a workspace before the planner is first asked
 * whether it knows of them (jobs/keep-statistics.ts, records/note-records-created.ts). A statement
 * planned on statistics that miss this many of a workspace's records reads at most this many
 * index entries more than it should: at the 0.15 µs an entry measured (docs/performance.md,
 * "Lookups by id"), under a millisecond, less than a GET one takes when nothing runs.
 */
export const STATISTICS_FLOOR_ROWS = 5_000;

/**
 * How long the check waits for the table's lock before it leaves the statistics to
 * PostgreSQL's autovacuum: ANALYZE waits behind another ANALYZE, a VACUUM or an index being
 * built, none of which an import or a request should wait minutes for.
 */
const ANALYZE_LOCK_TIMEOUT = '5s';

/** ANALYZE records, waiting for the table's lock at most ANALYZE_LOCK_TIMEOUT. */
export async function analyzeRecords(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${ANALYZE_LOCK_TIMEOUT}'`));
    await tx.execute(sql`analyze records`);
  });
}
