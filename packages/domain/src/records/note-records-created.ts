import { type Database, schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import { estimateRows } from '../shared/list-query.ts';
import { analyzeRecords, STATISTICS_FLOOR_ROWS } from '../shared/record-statistics.ts';

/** A workspace's records created through the API by this process, and when to ask next. */
interface Created {
  rows: number;
  nextAt: number;
}

/** The workspaces `noteRecordsCreated` counts for, forgotten all at once past this many. */
const MAX_COUNTED_WORKSPACES = 10_000;
const created = new Map<string, Created>();
/** The check running in this process, if any: one at a time, whatever the workspace. */
let checking: Promise<void> | undefined;

/**
 * The same check as an import's (`keepStatistics`), for records created through the API
 * (`POST /records`, `POST /records/batch`): a workspace an integration fills a batch at a time
 * is as unknown to the planner as one an import fills, and a list sorted by a custom field
 * there took 1.5 s at 100,000 records instead of a few ms (docs/performance.md, "Lookups by
 * id"). Counts what this process created in each workspace and, each time that doubles from
 * `STATISTICS_FLOOR_ROWS`, asks the planner how many records it believes the workspace holds;
 * under half of those created, it runs ANALYZE.
 * The request that crosses a doubling does not wait for it: the check runs after it, one at a
 * time in the process (a crossing while one runs is let go, the next doubling asks again), and
 * never fails. Returns the check when one starts, for tests to wait on.
 */
export function noteRecordsCreated(
  db: Database,
  workspaceId: string,
  rows: number,
): Promise<void> | undefined {
  if (rows <= 0) return undefined;
  let counted = created.get(workspaceId);
  if (!counted) {
    if (created.size >= MAX_COUNTED_WORKSPACES) created.clear();
    counted = { rows: 0, nextAt: STATISTICS_FLOOR_ROWS };
    created.set(workspaceId, counted);
  }
  counted.rows += rows;
  if (counted.rows < counted.nextAt) return undefined;
  while (counted.nextAt <= counted.rows) counted.nextAt *= 2;
  if (checking !== undefined) return undefined;
  const r = schema.records;
  const total = counted.rows;
  checking = (async () => {
    try {
      const believed = await estimateRows(db, r, eq(r.workspaceId, workspaceId));
      if (believed * 2 < total) await analyzeRecords(db);
    } catch {
      // Left to autovacuum: the database away, the table's lock held, a role without rights.
    } finally {
      checking = undefined;
    }
  })();
  return checking;
}
