import { type Database, schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import { estimateRows } from '../shared/list-query.ts';
import { analyzeRecords, STATISTICS_FLOOR_ROWS } from '../shared/record-statistics.ts';

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
 * second). Answers the check to call once chunks are committed, with the rows applied so far.
 * It never fails the import: statistics it cannot gather (the table's lock held longer than
 * `ANALYZE_LOCK_TIMEOUT`, a role that does not own the table, which PostgreSQL only warns
 * of) are left to autovacuum.
 */
export function keepStatistics(
  db: Database,
  workspaceId: string,
  fromRow: number,
): (rowsApplied: number) => Promise<void> {
  let nextAt = STATISTICS_FLOOR_ROWS;
  while (nextAt <= fromRow) nextAt *= 2;
  return async (rowsApplied) => {
    if (rowsApplied < nextAt) return;
    while (nextAt <= rowsApplied) nextAt *= 2;
    const r = schema.records;
    const believed = await estimateRows(db, r, eq(r.workspaceId, workspaceId));
    if (believed * 2 >= rowsApplied) return;
    await analyzeRecords(db).catch(() => {});
  };
}
