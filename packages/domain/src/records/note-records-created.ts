import type { Database } from '@crm/db';
import { keepStatistics } from '../shared/record-statistics.ts';

/** A workspace's records created through the API by this process, and its statistics check. */
interface Created {
  rows: number;
  check: ReturnType<typeof keepStatistics>;
}

/** The workspaces `noteRecordsCreated` counts for, forgotten all at once past this many. */
const MAX_COUNTED_WORKSPACES = 10_000;
const created = new Map<string, Created>();
/** The check running in this process, if any: one at a time, whatever the workspace. */
let checking: Promise<void> | undefined;

/**
 * An import's check of the statistics (`keepStatistics`), for records created through the API
 * (`POST /records`, `POST /records/batch`): a workspace an integration fills a batch at a time
 * is as unknown to the planner as one an import fills, and a list sorted by a custom field
 * there took seconds instead of a few ms (docs/performance.md, "Lookups by id"). Counts what
 * this process created in each workspace and gives the count to that workspace's check. The
 * request that crosses a doubling does not wait for it: the check runs after it, one at a time
 * in the process (while one runs, the others wait for the next record created), and never
 * fails. Returns the check when one starts, for tests to wait on.
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
    counted = { rows: 0, check: keepStatistics(db, workspaceId, 0) };
    created.set(workspaceId, counted);
  }
  counted.rows += rows;
  if (checking !== undefined) return undefined;
  const started = counted.check(counted.rows);
  if (started === undefined) return undefined;
  checking = started
    // Left to autovacuum: the database away, the table's lock held, a role without rights.
    .catch(() => {})
    .finally(() => {
      checking = undefined;
    });
  return checking;
}
