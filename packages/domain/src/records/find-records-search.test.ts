import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.ts';
import { newWorkspace, type TestWorkspace } from '../testing/fixtures.ts';
import { type PlanNode, planRecorder } from '../testing/plans.ts';
import { findRecords } from './find-records.ts';

/**
 * The `q` search walks the list in its order and, when the walk ends before the page is full,
 * finds the rest by the trigram index (shared/text-walk.ts). Whatever the path, a page is
 * exactly what one ORDER BY … LIMIT over every match gives: these tests walk every page of
 * searches whose matches are common, rare, absent, in long texts, in other cases, and in
 * another workspace, and compare with that query.
 */

let database: TestDatabase;
let pool: pg.Pool;
let db: Database;
let ws: TestWorkspace;
let actor: Actor;
let plansOf: ReturnType<typeof planRecorder>;

/** Records in each test workspace; a page of 2 walks 600 rows, so the rare terms take both steps. */
const RECORDS = 2_000;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 4 });
  plansOf = planRecorder(pool);
  db = createDatabase(pool);
  const other = await newWorkspace(db, 'Other');
  ws = await newWorkspace(db, 'Mine');
  actor = ws.actor;
  for (const w of [other, ws]) {
    // Titles: every third names a common word; one in 150 a rare surname, in varied case; one
    // in 400 a text of over 600 bytes that ends with the rare word (not in `search_lower`);
    // a few hold LIKE's wildcards. Instants in an order unlike the ids'.
    await pool.query(
      `insert into records (workspace_id, id, folder_id, title, email, search_text, created_at, updated_at)
       select $1, 'rec_' || $1 || '_' || n, $2, t, e, t || coalesce(E'\\n' || e, ''),
              now() - ((n * 7919) % 100000 || ' seconds')::interval,
              now() - ((n * 104729) % 100000 || ' seconds')::interval
         from (select n,
                      case when n % 400 = 0 then repeat('lorem ipsum ', 60) || 'Przybylski'
                           when n % 150 = 0 then (array['PRZYBYLSKI', 'Przybylski', 'przybylska'])[n % 3 + 1]
                           when n % 97 = 0 then 'Fifty 50%_off ' || n
                           when n % 3 = 0 then 'Common Contact ' || n
                           else 'Contact ' || n end as t,
                      case when n % 2 = 0 then 'p' || n || '@gmail.com' end as e
                 from generate_series(1, $3::int) n) s`,
      [w.actor.workspaceId, w.peopleFolderId, RECORDS],
    );
  }
  await pool.query('vacuum analyze records');
}, 120_000);
afterAll(async () => {
  await closePool(pool);
  await database?.drop();
});

/** Every id a search lists, page by page through its cursor. */
async function walkAll(q: string, pageSize: number, sort?: string) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 2_000; pages++) {
    const page = await findRecords(db, actor, {
      q,
      pageSize,
      ...(sort ? { sort } : {}),
      ...(cursor ? { cursor } : {}),
    });
    ids.push(...page.data.map((r) => r.id));
    if (!page.meta.nextCursor) return ids;
    cursor = page.meta.nextCursor;
  }
  throw new Error('too many pages');
}

/** What one query over every match gives, in the list's order. */
async function expected(q: string, order = 'created_at desc, id desc') {
  const escaped = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await pool.query<{ id: string }>(
    `select id from records where workspace_id = $1 and trashed_at is null and search_text ilike $2
      order by ${order}`,
    [actor.workspaceId, `%${escaped}%`],
  );
  return rows.map((r) => r.id);
}

describe('q search', () => {
  it.each([
    ['common', 'common contact'],
    ['rare, in every case and in long texts', 'przybylski'],
    ['a prefix of the rare word', 'PRZYBYL'],
    ["LIKE's wildcards, taken literally", '50%_'],
    ['an email domain, on every other record', 'GMAIL.com'],
    ['nothing', 'zqxjv'],
  ])('lists exactly the matches, in order, page after page: %s', async (_, q) => {
    const want = await expected(q);
    for (const pageSize of [2, 7, 50]) expect(await walkAll(q, pageSize)).toEqual(want);
  });

  it('keeps to the order asked for, walking a short way when the index does not hold the text', async () => {
    expect(await walkAll('przybylski', 3, 'title')).toEqual(
      await expected('przybylski', 'title asc, id asc'),
    );
    expect(await walkAll('contact 1', 4, '-updatedAt')).toEqual(
      await expected('contact 1', 'updated_at desc, id desc'),
    );
  });

  it('walks the newest-first index alone for a common term, and finds a rare one by the trigram index, in one statement', async () => {
    const reads = /"records"/;
    const scans = (nodes: PlanNode[]) =>
      nodes.filter((n) => n.index !== undefined).map((n) => `${n.index} ${n.executed ? 'ran' : 'skipped'}`);
    const [common, ...more] = await plansOf(
      () => findRecords(db, actor, { q: 'common', pageSize: 5 }),
      reads,
      { analyze: true },
    );
    expect(more).toHaveLength(0);
    expect(common!.nodes).toContainEqual({
      type: 'Index Only Scan',
      index: 'records_live_created_idx',
      relation: 'records',
      executed: true,
    });
    // The walk filled the page: the rest was not looked for.
    expect(scans(common!.nodes)).toContain('records_search_idx skipped');
    expect(scans(common!.nodes)).not.toContain('records_search_idx ran');

    const [rare, ...others] = await plansOf(
      () => findRecords(db, actor, { q: 'przybylska', pageSize: 5 }),
      reads,
      { analyze: true },
    );
    expect(others).toHaveLength(0);
    expect(scans(rare!.nodes)).toEqual(
      expect.arrayContaining(['records_live_created_idx ran', 'records_search_idx ran']),
    );
  });
});
