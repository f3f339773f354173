import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.ts';
import { newWorkspace, type TestWorkspace } from '../testing/fixtures.ts';
import { type PlanNode, planRecorder } from '../testing/plans.ts';
import { findRecords } from './find-records.ts';
import { MOST_OF_RECORDS, workspaceShare } from './workspace-shares.ts';

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

/** Records in each test workspace; a page of 2 walks 60 rows first and 600 at most, so the rare terms take both paths. */
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
    // Titles: every third names a common word; one in 30 a word a page of a few rows finds
    // within twice the walk's first step; one in 150 a rare surname, in varied case; one in
    // 400 a text of over 600 bytes that ends with the rare word (not in `search_lower`); a
    // few hold LIKE's wildcards. Instants in an order unlike the ids'.
    await pool.query(
      `insert into records (workspace_id, id, folder_id, title, email, search_text, created_at, updated_at)
       select $1, 'rec_' || $1 || '_' || n, $2, t, e, t || coalesce(E'\\n' || e, ''),
              now() - ((n * 7919) % 100000 || ' seconds')::interval,
              now() - ((n * 104729) % 100000 || ' seconds')::interval
         from (select n,
                      case when n % 400 = 0 then repeat('lorem ipsum ', 60) || 'Przybylski'
                           when n % 150 = 0 then (array['PRZYBYLSKI', 'Przybylski', 'przybylska'])[n % 3 + 1]
                           when n % 97 = 0 then 'Fifty 50%_off ' || n
                           when n % 30 = 7 then 'Steady ' || n
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
async function walkAll(q: string, pageSize: number, sort?: string, as = actor, trashed = false, handle = db) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 2_000; pages++) {
    const page = await findRecords(handle, as, {
      q,
      pageSize,
      ...(sort ? { sort } : {}),
      ...(cursor ? { cursor } : {}),
      ...(trashed ? { trashed: 'true' as const } : {}),
    });
    ids.push(...page.data.map((r) => r.id));
    if (!page.meta.nextCursor) return ids;
    cursor = page.meta.nextCursor;
  }
  throw new Error('too many pages');
}

/** What one query over every match gives, in the list's order. */
async function expected(q: string, order = 'created_at desc, id desc', as = actor, trashed = false) {
  const escaped = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await pool.query<{ id: string }>(
    `select id from records where workspace_id = $1 and trashed_at is ${trashed ? 'not ' : ''}null
        and search_text ilike $2
      order by ${order}`,
    [as.workspaceId, `%${escaped}%`],
  );
  return rows.map((r) => r.id);
}

/** Whether a statement is a step of the walk (it tests candidates from the newest-first index). */
const isWalk = (plan: { text: string }) => plan.text.includes('as "candidate"');

describe('q search', () => {
  it.each([
    ['common', 'common contact'],
    ['one record in 30', 'steady'],
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

  it('walks the newest-first index alone for a common term, and finds a rare one by the trigram index after it', async () => {
    const reads = /"records"/;
    const indexes = (nodes: PlanNode[]) => nodes.filter((n) => n.executed && n.index).map((n) => n.index);
    // The walk filled the page: the rest was not looked for.
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
    expect(indexes(common!.nodes)).not.toContain('records_search_idx');

    const [walk, ...rest] = await plansOf(
      () => findRecords(db, actor, { q: 'przybylska', pageSize: 5 }),
      reads,
      {
        analyze: true,
      },
    );
    expect(indexes(walk!.nodes)).toContain('records_live_created_idx');
    expect(indexes(walk!.nodes)).not.toContain('records_search_idx');
    expect(rest.flatMap((plan) => indexes(plan.nodes))).toContain('records_search_idx');

    // The first step of the walk (20 rows per row needed) found nothing: no second step, the
    // trigram index at once.
    const absent = await plansOf(() => findRecords(db, actor, { q: 'zqxjv', pageSize: 5 }), reads);
    expect(absent.map(isWalk)).toEqual([true, ...absent.slice(1).map(() => false)]);
    expect(absent.length).toBeGreaterThan(1);
  });

  it('walks on after the first step for a term it found often enough there to fill the page soon', async () => {
    // One record in 30: a page of 10 needs about 330 rows, and the first step walks 220.
    const plans = await plansOf(() => findRecords(db, actor, { q: 'steady', pageSize: 10 }), /"records"/);
    expect(plans.map(isWalk)).toEqual([true, true]);
  });
});

/**
 * In order of creation the rest is read by periods first (the 16 days a record was made in:
 * searchPeriod), then all that is older. A workspace of records made over
 * three years, the newest 700 within its last minutes and holding none of the terms (as after a
 * day of imports), some made at the very first instant of a period, shows every boundary.
 */
describe('q search by periods of creation', () => {
  let spread: Actor;
  let early: Actor;
  const DAY = 86_400;
  // The newest record's instant: the middle of a day and of 16 days (the 9th of them), so that
  // which periods a search reads does not depend on the day the tests run; and, in a second
  // workspace, the middle of a period's 2nd day, where the search reads the period before too.
  const NEWEST = `timestamptz '2026-06-28T12:00:00Z'`;
  const NEWEST_EARLY = `timestamptz '2026-06-21T12:00:00Z'`;

  async function seed(name: string, newest: string): Promise<Actor> {
    const w = await newWorkspace(db, name);
    await pool.query(
      `insert into records (workspace_id, id, folder_id, title, search_text, created_at, updated_at, trashed_at)
       select $1, 'rec_' || $3 || '_' || n, $2, t, t, at, at, case when n % 11 = 0 then at end
         from (select n,
                      case when n <= 700 then 'Head ' || n
                           when n % 500 = 0 then 'Vandersloot ' || n
                           when n % 3 = 0 then 'Mail p' || n || '@gmail.com'
                           when n % 40 = 1 then 'Medium match ' || n
                           else 'Older ' || n end as t,
                      case when n <= 700 then ${newest} - (n || ' seconds')::interval
                           -- the first instant of a day, of 16 days, of 256 days, up to three years back
                           when n % 7 = 1 then to_timestamp((floor(extract(epoch from ${newest}) / ${DAY}) - n % 1100) * ${DAY})
                           when n % 7 = 2 then to_timestamp((floor(extract(epoch from ${newest}) / ${16 * DAY}) - n % 68) * ${16 * DAY})
                           when n % 7 = 3 then to_timestamp((floor(extract(epoch from ${newest}) / ${256 * DAY}) - n % 4) * ${256 * DAY})
                           -- none of the older records within the day before the newest
                           else ${newest} - interval '1 day' - ((n::bigint * 7919) % ${1100 * DAY} || ' seconds')::interval
                      end as at
                 from generate_series(1, 4000) n) s`,
      [w.actor.workspaceId, w.peopleFolderId, name.toLowerCase()],
    );
    return w.actor;
  }

  beforeAll(async () => {
    spread = await seed('Spread', NEWEST);
    early = await seed('Early', NEWEST_EARLY);
    await pool.query('vacuum analyze records');
  }, 120_000);

  it.each([
    ['common before the newest records, absent from them', 'gmail'],
    ['one record in 40', 'medium match'],
    ['rare', 'vandersloot'],
    ['in the newest records only', 'head 1'],
    ['nothing', 'zqxjv'],
  ])('lists exactly the matches, in either order and in the Trash: %s', async (_, q) => {
    for (const as of [spread, early]) {
      for (const pageSize of [2, 50]) {
        expect(await walkAll(q, pageSize, undefined, as)).toEqual(await expected(q, undefined, as));
        expect(await walkAll(q, pageSize, 'createdAt', as)).toEqual(
          await expected(q, 'created_at asc, id asc', as),
        );
      }
      expect(await walkAll(q, 7, undefined, as, true)).toEqual(
        await expected(q, 'created_at desc, id desc', as, true),
      );
    }
  });

  it('reads a term absent from the newest records by its first period, not by all its matches', async () => {
    // Statements that asked the trigram index, and whether each asked for one period only.
    const searches = async (q: string, as = spread) => {
      const plans = await plansOf(() => findRecords(db, as, { q, pageSize: 2 }), /"records"/, {
        analyze: true,
      });
      return plans
        .filter((plan) => plan.nodes.some((n) => n.executed && n.index === 'records_search_idx'))
        .map((plan) => (plan.text.includes(`/ ${16 * DAY})::integer) = `) ? 'one period' : 'all older'));
    };
    // The walk passed the newest 700 records, which hold no `gmail`; the 16 days they fall in
    // filled the page, and what is older was not read.
    expect(await searches('gmail')).toEqual(['one period']);
    expect(await searches('vandersloot')).toEqual(['one period', 'all older']);
    // A day and a half into its period, the newest records' 16 days hold too few: the period
    // before them is read as well, still not all that is older.
    expect(await searches('gmail', early)).toEqual(['one period', 'one period']);
  });
});

/**
 * A workspace that is most of the table is tested on the rows the rest reads instead of asked
 * of the trigram index (workspace-shares.ts); a small one still is. Either way, the same pages.
 */
describe('q search in a workspace that is most of the table', () => {
  let most: Actor;
  // A handle of its own: the shares are read once per handle, here after this workspace exists.
  let fresh: Database;

  beforeAll(async () => {
    const w = await newWorkspace(db, 'Most');
    most = w.actor;
    await pool.query(
      `insert into records (workspace_id, id, folder_id, title, search_text, created_at, updated_at)
       select $1, 'rec_most_' || n, $2, t, t, at, at
         from (select n,
                      case when n % 700 = 0 then 'Zephyrine ' || n
                           when n % 40 = 0 then 'Mail p' || n || '@gmail.com'
                           else 'Person ' || n end as t,
                      now() - ((n::bigint * 7919) % ${3 * 365 * 86_400} || ' seconds')::interval as at
                 from generate_series(1, 20000) n) s`,
      [most.workspaceId, w.peopleFolderId],
    );
    await pool.query('vacuum analyze records');
    fresh = createDatabase(pool);
  }, 120_000);

  it('knows the share from the statistics', async () => {
    expect(await workspaceShare(fresh, most.workspaceId)).toBeGreaterThanOrEqual(MOST_OF_RECORDS);
    expect(await workspaceShare(fresh, actor.workspaceId)).toBeLessThan(MOST_OF_RECORDS);
  });

  it.each([
    ['rare', 'zephyrine'],
    ['one record in 40', 'gmail'],
    ['nothing', 'zqxjv'],
  ])('lists exactly the matches, in either order: %s', async (_, q) => {
    for (const pageSize of [3, 50]) {
      expect(await walkAll(q, pageSize, undefined, most, false, fresh)).toEqual(
        await expected(q, undefined, most),
      );
      expect(await walkAll(q, pageSize, 'createdAt', most, false, fresh)).toEqual(
        await expected(q, 'created_at asc, id asc', most),
      );
      expect(await walkAll(q, pageSize, 'title', most, false, fresh)).toEqual(
        await expected(q, 'title asc, id asc', most),
      );
    }
  });

  it('asks the trigram index for the workspace only when it is a small part of the table', async () => {
    // The statements after the walk, and whether the trigram index was asked for the workspace.
    const rest = async (as: Actor) => {
      const plans = await plansOf(() => findRecords(fresh, as, { q: 'zqxjv', pageSize: 5 }), /"records"/);
      return plans
        .filter((plan) => !isWalk(plan))
        .map((plan) => plan.text.includes(`("records"."workspace_id" || '') =`));
    };
    const mostRest = await rest(most);
    expect(mostRest.length).toBeGreaterThan(0);
    expect(mostRest.every(Boolean)).toBe(true);
    const smallRest = await rest(actor);
    expect(smallRest.length).toBeGreaterThan(0);
    expect(smallRest.some(Boolean)).toBe(false);
  });
});
