import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { answerCache } from '../shared/answer-cache.ts';

/**
 * `records.search_text` is written lower-cased (shared/search-text.ts); records an earlier
 * version wrote are not, until the worker's `lower_search_texts` task writes them again
 * (migration 0024). `records_search_unlowered_idx` holds exactly those, so asking whether any
 * is left reads an index that is empty once they are done.
 *
 * A `q` search tests with LIKE when none is left and with ILIKE while some are: the same
 * answer either way, ILIKE lower-casing each text it tests (docs/performance.md, "Search").
 * During a rolling upgrade, processes of the earlier version write such records again; the
 * next answer after them (at most 30 s later) sees them, and the task lowers them.
 */

/** How long an answer is used before the question is asked again, per database handle. */
const ANSWER_MS = 30_000;

const r = schema.records;
const unlowered = sql`${r.searchText} <> lower(${r.searchText})`;
/**
 * The order of `records_search_unlowered_idx`, which no other index gives: asked in that order,
 * PostgreSQL reads that index (empty once every record is lowered), never the table; with no
 * order (or inside EXISTS, which drops the order) it read the table looking for a first one,
 * expecting nearly every record to be one.
 */
const byIndex = sql`${schema.searchWorkspace(r.workspaceId)}, ${r.id}`;

const lowered = answerCache(ANSWER_MS, async (db) => {
  const result = await db.execute(sql`select 1 from ${r} where ${unlowered} order by ${byIndex} limit 1`);
  return result.rows.length === 0;
});

/** True when every record's search text is lower-cased (asked at most every 30 s per handle). */
export function searchTextsLowered(db: Database): Promise<boolean> {
  return lowered.get(db);
}

/**
 * Writes up to `limit` records whose search text is not lower-cased again, lower-cased, a
 * statement per workspace (each reaches one shard of a sharded database). Their `updated_at`
 * and everything else stay: nothing the API shows changes. Returns how many it wrote; 0 when
 * none is left.
 */
export async function lowerSearchTexts(db: Database, limit = 500): Promise<number> {
  const found = await db
    .select({ workspaceId: r.workspaceId, id: r.id })
    .from(r)
    .where(unlowered)
    .orderBy(byIndex)
    .limit(limit);
  const byWorkspace = new Map<string, string[]>();
  for (const row of found)
    byWorkspace.set(row.workspaceId, [...(byWorkspace.get(row.workspaceId) ?? []), row.id]);
  let written = 0;
  for (const [workspaceId, ids] of byWorkspace) {
    const rows = await db
      .update(r)
      .set({ searchText: sql`lower(${r.searchText})` })
      .where(and(eq(r.workspaceId, workspaceId), inArray(r.id, ids), unlowered))
      .returning({ id: r.id });
    written += rows.length;
  }
  // This process searches with LIKE as soon as it wrote the last ones.
  if (found.length < limit) lowered.forget(db);
  return written;
}
