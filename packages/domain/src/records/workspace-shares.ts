import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';

/**
 * What share of the `records` table each large workspace holds, from PostgreSQL's own
 * statistics (the most common values of `workspace_id` that ANALYZE keeps), read at most
 * every `SHARES_TTL_MS` per database handle.
 *
 * A `q` search asks the trigram index for the workspace only when the workspace is a small
 * part of the table (docs/performance.md, "Search"). The workspace's key in that index lists
 * every record of the workspace, and the index decodes that list around every match: for a
 * workspace that is most of the table it is the larger half of the search's cost and narrows
 * nothing. A workspace that the statistics do not name (a small one, or any workspace when
 * the table has no statistics, as on a Citus coordinator) counts as a small part.
 */

/**
 * The share from which a workspace is "most of the table": above it, the matches of other
 * workspaces a search reads without the workspace's key are fewer than its own.
 */
export const MOST_OF_RECORDS = 0.5;

/** How long shares read from the statistics are used before they are read again. */
const SHARES_TTL_MS = 10 * 60_000;

interface Shares {
  readAt: number;
  byWorkspace: ReadonlyMap<string, number>;
}

const read = new WeakMap<object, Shares>();
const reading = new WeakMap<object, Promise<Shares>>();

async function readShares(db: Database, now: number): Promise<Shares> {
  const result = await db.execute(sql`
    select most_common_vals::text::text[] as "values", most_common_freqs as "freqs"
      from pg_stats
     where schemaname = current_schema() and tablename = 'records' and attname = 'workspace_id'`);
  const row = result.rows[0] as { values: string[] | null; freqs: number[] | null } | undefined;
  const byWorkspace = new Map<string, number>();
  row?.values?.forEach((workspaceId, i) => {
    const freq = row.freqs?.[i];
    if (freq !== undefined) byWorkspace.set(workspaceId, freq);
  });
  return { readAt: now, byWorkspace };
}

/**
 * The share (0 to 1) of `records` that `workspaceId` holds, as of the last ANALYZE; 0 when
 * the statistics do not name it. The first call on a handle, and the first after the shares
 * are `SHARES_TTL_MS` old, reads them (one statement, shared by the calls made meanwhile).
 */
export async function workspaceShare(db: Database, workspaceId: string): Promise<number> {
  const now = Date.now();
  let shares = read.get(db);
  if (!shares || now - shares.readAt >= SHARES_TTL_MS) {
    let pending = reading.get(db);
    if (!pending) {
      pending = readShares(db, now).finally(() => reading.delete(db));
      reading.set(db, pending);
    }
    shares = await pending;
    read.set(db, shares);
  }
  return shares.byWorkspace.get(workspaceId) ?? 0;
}
