import { type Database, schema } from '@crm/db';
import { eq, sql } from 'drizzle-orm';
import { estimateRows } from './list-query.ts';

/**
 * Records an import writes, or the API creates, in a workspace before the planner is first asked
 * whether it knows of them (`keepStatistics`, records/note-records-created.ts). A statement
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
async function analyzeRecords(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${ANALYZE_LOCK_TIMEOUT}'`));
    await tx.execute(sql`analyze records`);
  });
}

/**
 * Keeps the planner's statistics of `records` abreast of an import. PostgreSQL's autovacuum
 * gathers them once a tenth of the table has changed, and looks at most once a minute: a
 * workspace that an import fills, in an empty table or beside other workspaces' millions of
 * records, stays unknown to the planner meanwhile, which then plans every statement on the
 * workspace as if it held a handful of records. The lookups by id do not depend on that
 * (loadInWorkspace); the lists, filters and searches do (docs/jobs.md, "How jobs share the
 * service").
 *
 * Each time the file rows the job has applied double (from `STATISTICS_FLOOR_ROWS`, counted
 * from the file's start, so a run resumed from a checkpoint goes on with the same steps), it
 * asks the planner how many records it believes the workspace has; when that is under half
 * the rows applied, it runs `ANALYZE records`: eight questions and at most as many ANALYZE
 * over a million rows (one ANALYZE of a million records reads a sample of 30,000: under a
 * second). Answers the check to call once chunks are committed, with the rows applied so far: a
 * promise while it asks, nothing when no doubling was crossed.
 * It never fails the import: statistics it cannot gather (the table's lock held longer than
 * `ANALYZE_LOCK_TIMEOUT`, a role that does not own the table, which PostgreSQL only warns
 * of) are left to autovacuum.
 */
export function keepStatistics(
  db: Database,
  workspaceId: string,
  fromRow: number,
): (rowsApplied: number) => Promise<void> | undefined {
  let nextAt = STATISTICS_FLOOR_ROWS;
  while (nextAt <= fromRow) nextAt *= 2;
  return (rowsApplied) => {
    if (rowsApplied < nextAt) return undefined;
    while (nextAt <= rowsApplied) nextAt *= 2;
    return gatherIfUnknown(db, workspaceId, rowsApplied);
  };
}

/** ANALYZE when the planner believes the workspace holds under half of `rows` records. */
async function gatherIfUnknown(db: Database, workspaceId: string, rows: number): Promise<void> {
  const r = schema.records;
  const believed = await estimateRows(db, r, eq(r.workspaceId, workspaceId));
  if (believed * 2 >= rows) return;
  await analyzeRecords(db).catch(() => {});
}
