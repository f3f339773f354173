import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';
import { answerCache } from '../shared/answer-cache.ts';

const COUNTED_FROM_PAGES = 1_000;

const share = answerCache(30_000, async (db) => {
  const result = await db.execute<{ pages: number; visible: number }>(
    sql`select relpages::float8 as pages, relallvisible::float8 as visible from pg_class where oid = 'records'::regclass`,
  );
  const row = result.rows[0];
  const pages = Number(row?.pages ?? 0);
  return pages >= COUNTED_FROM_PAGES ? Math.min(1, Number(row?.visible ?? 0) / pages) : undefined;
});

/**
 * The share of `records`' pages that the visibility map marks all-visible, as the planner's
 * statistics last counted them (`pg_class.relallvisible` over `relpages`, brought up to date by
 * VACUUM and ANALYZE); undefined while the table is under 1,000 pages (8 MB, which stays in
 * memory) or has not been counted (a sharded database's coordinator holds no rows).
 *
 * A `q` search's walk reads an index alone only where pages are all-visible: elsewhere each
 * index row costs a read of the table to tell whether its row is visible, as much as reading a
 * record (docs/performance.md, "Search"). Records changed in bulk since autovacuum last ran
 * (an import that updates, 30 % of a workspace PATCHed) leave most pages so, until it runs
 * again. Asked at most every 30 s per database handle.
 */
export function recordsVisibleShare(db: Database): Promise<number | undefined> {
  return share.get(db);
}
