import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { everyPage, newWorkspace } from '../testing/fixtures.ts';
import { type PlanNode, planRecorder } from '../testing/plans.ts';
import { findRecords } from './find-records.ts';
import { searchWalk } from './list-records.ts';
import { lowerSearchTexts } from './search-texts-lowered.ts';

/**
 * The `q` search walks the list in its order and, when the walk ends before the page is full,
 * finds the rest by the trigram index (shared/text-walk.ts). Whatever the path, a page is
 * exactly what one ORDER BY … LIMIT over every match gives: these tests walk every page of
 * searches whose matches are common, rare, absent, in long texts, in other cases, in another
 * folder and in another workspace, and compare with that query. (find-records-lists.test.ts
 * tries random combinations of every parameter.)
 */

let database: TestDatabase;
let pool: pg.Pool;
let db: Database;
let actor: Actor;
let people: string;
let companies: string;
let plansOf: ReturnType<typeof planRecorder>;

const RECORDS = 2_000;
const defaults = { ...searchWalk };

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 4 });
  plansOf = planRecorder(pool);
  db = createDatabase(pool);
  const other = await newWorkspace(db, 'Other');
  const mine = await newWorkspace(db, 'Mine');
  actor = mine.actor;
  people = mine.peopleFolderId;
  companies = (await createFolder(db, actor, { name: 'Companies' })).id;
  for (const w of [other, mine]) {
    // Titles: every third names a common word; one in 30 a steadier one; one in 150 a rare
    // surname, in varied case; one in 400 a text of over 600 bytes that ends with the rare
    // word (not in `search_lower`); a few hold LIKE's wildcards. Instants in an order unlike
    // the ids'.
    await pool.query(
      `insert into records (workspace_id, id, folder_id, title, email, search_text, created_at, updated_at)
       select $1, 'rec_' || $1 || '_' || n, $2, t, e, lower(t || coalesce(E'\\n' || e, '')),
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
  // Companies: 300 of them, each with a mailbox at its own domain, none at gmail. (Search
  // texts are written as the service writes them: lower-cased.)
  await pool.query(
    `insert into records (workspace_id, id, folder_id, title, email, search_text, created_at, updated_at)
     select $1, 'rec_co_' || n, $2, 'Company ' || n, 'info@co' || n || '.com',
            lower('Company ' || n || E'\\ninfo@co' || n || '.com'), now() - (n || ' seconds')::interval, now()
       from generate_series(1, 300) n`,
    [actor.workspaceId, companies],
  );
  await pool.query('vacuum analyze records');
}, 120_000);
afterEach(() => Object.assign(searchWalk, defaults));
afterAll(async () => {
  await closePool(pool);
  await database?.drop();
});

/** Every id a search lists, page by page through its cursor. */
function walkAll(
  q: string,
  pageSize: number,
  params: { sort?: string; folderId?: string; trashed?: boolean } = {},
) {
  return everyPage((cursor) =>
    findRecords(db, actor, {
      q,
      pageSize,
      ...(params.sort ? { sort: params.sort } : {}),
      ...(params.folderId ? { folderId: params.folderId } : {}),
      ...(params.trashed ? { trashed: 'true' as const } : {}),
      ...(cursor ? { cursor } : {}),
    }),
  );
}

/** What one query over every match gives, in the list's order. */
async function expected(q: string, order = 'created_at desc, id desc', folderId?: string) {
  const escaped = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await pool.query<{ id: string }>(
    `select id from records where workspace_id = $1 and trashed_at is null
        and search_text ilike $2 and ($3::text is null or folder_id = $3)
      order by ${order}`,
    [actor.workspaceId, `%${escaped}%`, folderId ?? null],
  );
  return rows.map((r) => r.id);
}

const TERMS: [string, string][] = [
  ['common', 'common contact'],
  ['one record in 30', 'steady'],
  ['rare, in every case and in long texts', 'przybylski'],
  ['a prefix of the rare word', 'PRZYBYL'],
  ["LIKE's wildcards, taken literally", '50%_'],
  ['an email domain, on every other record', 'GMAIL.com'],
  ['nothing', 'zqxjv'],
];

describe('q search', () => {
  it.each(TERMS)('lists exactly the matches, in order, page after page: %s', async (_, q) => {
    const want = await expected(q);
    for (const pageSize of [2, 7, 50]) expect(await walkAll(q, pageSize)).toEqual(want);
  });

  it.each(TERMS)('lists the same pages when the walk ends early and the rest is read: %s', async (_, q) => {
    Object.assign(searchWalk, { rows: 40, reads: 10 });
    for (const [sort, order] of [
      [undefined, 'created_at desc, id desc'],
      ['createdAt', 'created_at asc, id asc'],
      ['-updatedAt', 'updated_at desc, id desc'],
      ['title', 'title asc, id asc'],
      ['-title', 'title desc, id desc'],
    ] as const) {
      expect(await walkAll(q, 7, { ...(sort ? { sort } : {}) }), `${q} by ${order}`).toEqual(
        await expected(q, order),
      );
    }
  });

  it('searches one folder: a term common in another folder, and one of that folder', async () => {
    Object.assign(searchWalk, { rows: 40, reads: 10 });
    for (const q of ['gmail', 'company 1', 'zqxjv']) {
      for (const folderId of [people, companies]) {
        expect(await walkAll(q, 5, { folderId })).toEqual(await expected(q, undefined, folderId));
      }
    }
  });

  const reads = /"records"/;
  const indexes = (nodes: PlanNode[]) => nodes.filter((n) => n.executed && n.index).map((n) => n.index);

  it('walks the index alone for a common term, in each order whose index holds the text', async () => {
    for (const [sort, index] of [
      ['-createdAt', 'records_live_created_idx'],
      ['-updatedAt', 'records_live_updated_idx'],
      ['title', 'records_live_title_idx'],
    ] as const) {
      // The walk filled the page: the rest was not looked for.
      const [walk, ...more] = await plansOf(
        () => findRecords(db, actor, { q: 'common', sort, pageSize: 5 }),
        reads,
        {
          analyze: true,
        },
      );
      expect(more, sort).toHaveLength(0);
      expect(walk!.nodes, sort).toContainEqual({
        type: 'Index Only Scan',
        index,
        relation: 'records',
        executed: true,
      });
      expect(indexes(walk!.nodes)).not.toContain('records_search_idx');
    }
  });

  it('asks the trigram index for the rest of a rare term, for this workspace alone', async () => {
    Object.assign(searchWalk, { rows: 200, reads: 50 });
    const [walk, rest, ...more] = await plansOf(
      () => findRecords(db, actor, { q: 'przybylska', pageSize: 5 }),
      reads,
      { analyze: true },
    );
    expect(more).toHaveLength(0);
    expect(indexes(walk!.nodes)).not.toContain('records_search_idx');
    // The matches through the trigram index; the page's rows by their key.
    expect(indexes(rest!.nodes)).toContain('records_search_idx');
    expect(indexes(rest!.nodes).filter((i) => i !== 'records_search_idx' && i !== 'records_pkey')).toEqual(
      [],
    );
    expect(rest!.text).toContain(`("records"."workspace_id" || '') = $`);
    // Where the rest starts (here the cursor: no walk) is no range of an index: the order's
    // index is not walked again.
    const first = await findRecords(db, actor, { q: 'gmail', pageSize: 5 });
    Object.assign(searchWalk, { rows: 0 });
    const [after, ...others] = await plansOf(
      () => findRecords(db, actor, { q: 'gmail', pageSize: 5, cursor: first.meta.nextCursor ?? '' }),
      reads,
      { analyze: true },
    );
    expect(others).toHaveLength(0);
    expect(after!.text).toMatch(/\) is true/);
    expect(indexes(after!.nodes)).toContain('records_search_idx');
    expect(indexes(after!.nodes).filter((i) => i !== 'records_search_idx' && i !== 'records_pkey')).toEqual(
      [],
    );
  });

  it('reads each match by its key alone in a workspace the statistics do not know yet', async () => {
    // Filled after the last ANALYZE, as a workspace filled through the API is until autovacuum
    // next gathers statistics: the planner takes it for a handful of rows, and an index that
    // starts with the workspace and holds the list's conditions looked as cheap as the primary
    // key for a read by id. It then read every entry of the workspace for each match (2.5 to
    // 3 s a search at 100,000 records; docs/performance.md, "Lookups by id").
    const fresh = await newWorkspace(db, 'Filled since ANALYZE');
    await pool.query(
      `insert into records (workspace_id, id, folder_id, title, search_text, created_at)
       select $1, 'rec_fresh_' || n, $2, t, lower(t), now() - (n || ' seconds')::interval
         from (select n, case when n % 3 = 0 then 'Common Contact ' || n
                              when n % 500 = 0 then 'Przybylski ' || n
                              else 'Contact ' || n end as t
                 from generate_series(1, 3000) n) s`,
      [fresh.actor.workspaceId, fresh.peopleFolderId],
    );
    Object.assign(searchWalk, { rows: 300, reads: 100 });
    for (const [q, sort] of [
      ['common', '-createdAt'],
      ['common', 'title'],
      ['przybylski', '-createdAt'],
      ['przybylski', '-updatedAt'],
    ] as const) {
      const statements = await plansOf(() => findRecords(db, fresh.actor, { q, sort, pageSize: 20 }), reads, {
        analyze: true,
      });
      expect(statements.length, `${q} ${sort}`).toBeGreaterThan(0);
      for (const statement of statements) {
        // Each statement reads its list's order (or the trigram index) once, and each match
        // by the primary key: no index of the lists is read once per match.
        const reads = statement.nodes.filter((n) => n.executed && n.index && n.index !== 'records_pkey');
        expect(reads.length, `${q} ${sort}: ${statement.text}`).toBeLessThanOrEqual(1);
      }
    }
    const page = await findRecords(db, fresh.actor, { q: 'przybylski', pageSize: 20 });
    expect(page.data.map((r) => r.id).sort()).toEqual(
      ['rec_fresh_500', 'rec_fresh_1000', 'rec_fresh_2000', 'rec_fresh_2500'].sort(),
    );
  });

  it('finds a record an earlier version wrote, whose search text is not lower-cased, before and after the worker lowers it', async () => {
    const written = await pool.query<{ id: string }>(
      `insert into records (workspace_id, id, folder_id, title, search_text)
       values ($1, 'rec_mixed_case_1', $2, 'Vandersloot Mixed', 'Vandersloot Mixed') returning id`,
      [actor.workspaceId, people],
    );
    const id = written.rows[0]?.id;
    // A handle of its own each time: whether any is left is asked once per 30 s per handle.
    const search = async () => {
      const handle = createDatabase(pool);
      const statements = await plansOf(() => findRecords(handle, actor, { q: 'VANDERSLOOT' }), /search_text/);
      const page = await findRecords(handle, actor, { q: 'VANDERSLOOT' });
      const like = statements.map((s) =>
        s.text.includes(' like lower(') ? 'like' : s.text.includes(' ilike ') ? 'ilike' : '-',
      );
      return { ids: page.data.map((r) => r.id), like: like.includes('like') && !like.includes('ilike') };
    };
    expect(await search()).toEqual({ ids: [id], like: false });
    while ((await lowerSearchTexts(createDatabase(pool))) > 0) {}
    expect(
      (await pool.query('select search_text from records where id = $1', [id])).rows[0].search_text,
    ).toBe('vandersloot mixed');
    expect(await search()).toEqual({ ids: [id], like: true });
  });
});
