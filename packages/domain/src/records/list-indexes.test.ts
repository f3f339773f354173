import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import { addFolderField } from '../folders/index.ts';
import type { Actor } from '../shared/actor.ts';
import { newWorkspace } from '../testing/fixtures.ts';
import { planRecorder } from '../testing/plans.ts';
import { findRecords } from './find-records.ts';

/**
 * The statements the list queries of polling and syncing send are served by indexes
 * (docs/api.md, "Indexes"): EXPLAIN of the exact SQL findRecords sends, over a workspace of
 * 30,000 records beside another of 10,000, shows an index scan of records and no sequential
 * scan. `pnpm bench` measures the same queries at 1,000,000 records.
 */

let database: TestDatabase;
let pool: pg.Pool;
let db: Database;
let actor: Actor;
let plansOf: ReturnType<typeof planRecorder>;
/** Where the second page of the list sorted by `-data.company` starts. */
let companyCursor: string;
/** A workspace of ten folders of 2,000 records each, and the folders. */
let foldered: { actor: Actor; folderIds: string[] };

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 4 });
  plansOf = planRecorder(pool);
  db = createDatabase(pool);
  const other = await newWorkspace(db, 'Other');
  const mine = await newWorkspace(db, 'Mine');
  actor = mine.actor;
  for (const ws of [other, mine]) {
    await addFolderField(db, ws.actor, {
      id: ws.peopleFolderId,
      key: 'score',
      label: 'Score',
      type: 'NUMBER',
    });
  }
  const seed = async (ws: typeof mine, count: number) =>
    pool.query(
      `insert into records (workspace_id, id, folder_id, title, data, created_at, updated_at)
       select $1, 'rec_' || $1 || '_' || n, $2, 'Contact ' || n,
              jsonb_build_object('lifecycle', case when n % 10 = 0 then 'Customer' else 'Lead' end)
                || case when n % 7 = 0 then '{}'::jsonb else jsonb_build_object('score', n % 101) end
                || case when n % 3 = 0 then '{}'::jsonb else jsonb_build_object('company', 'Company ' || n % 997) end,
              now() - (n || ' minutes')::interval,
              now() - ((n * 7919) % 43200 || ' minutes')::interval
       from generate_series(1, $3::int) n`,
      [ws.actor.workspaceId, ws.peopleFolderId, count],
    );
  await seed(other, 10_000);
  await seed(mine, 30_000);
  const ten = await newWorkspace(db, 'Ten folders');
  const folderIds: string[] = [];
  for (let i = 0; i < 10; i++) {
    const folder = await createFolder(db, ten.actor, {
      name: `Folder ${i}`,
      fields: [
        { key: 'score', label: 'Score', type: 'NUMBER' },
        { key: 'stage', label: 'Stage', type: 'SELECT', options: ['Lead', 'Customer'] },
      ],
    });
    folderIds.push(folder.id);
  }
  await pool.query(
    `insert into records (workspace_id, id, folder_id, title, data, search_text, created_at, updated_at)
     select $1, 'rec_ten_' || n, ($2::text[])[1 + n % 10], 'Contact ' || n,
            jsonb_build_object('score', (n * 7919) % 100, 'stage', case when n % 9 = 0 then 'Customer' else 'Lead' end),
            lower('Contact ' || n || ' notes of the call about the renewal'),
            now() - (n || ' minutes')::interval, now() - ((n * 7919) % 43200 || ' minutes')::interval
       from generate_series(1, 20000) n`,
    [ten.actor.workspaceId, folderIds],
  );
  foldered = { actor: ten.actor, folderIds };
  await pool.query('analyze records');
  const first = await findRecords(db, actor, { sort: '-data.company', pageSize: 50 });
  companyCursor = first.meta.nextCursor ?? '';
}, 120_000);
afterAll(async () => {
  await closePool(pool);
  await database?.drop();
});

const since = () => new Date(Date.now() - 3 * 3600_000).toISOString();

describe('list queries use indexes', () => {
  const cases: [string, () => Parameters<typeof findRecords>[2], RegExp][] = [
    ['SELECT equality', () => ({ filter: { 'data.lifecycle': 'Customer' } }), /^records_data_lifecycle_idx$/],
    [
      'NUMBER range',
      () => ({ filter: { 'data.score': { gte: '40', lt: '45' } } }),
      /^records_data_score_idx$|^records_live_/,
    ],
    [
      'newest change first',
      () => ({ sort: '-updatedAt', updatedSince: since() }),
      /^records_live_updated_idx$/,
    ],
    [
      'combined filter, newest change first',
      () => ({
        filter: { 'data.lifecycle': 'Customer', 'data.score': { gte: '50' } },
        sort: '-updatedAt',
        updatedSince: since(),
      }),
      /^records_(data_lifecycle|data_score|live_updated)_idx$/,
    ],
    ['sorted by a NUMBER field', () => ({ sort: '-data.score' }), /^records_data_score_idx$/],
    // The order of a TEXT field's short values, and the probe for a long one (sorted-text.ts).
    ['sorted by a TEXT field', () => ({ sort: 'data.company' }), /^records_text_company(_long)?_idx$/],
    [
      'sorted by a TEXT field, descending, after a cursor',
      () => ({ sort: '-data.company', cursor: companyCursor }),
      /^records_text_company(_long)?_idx$/,
    ],
  ];

  it.each(cases)('%s', async (_name, input, expected) => {
    const plans = await plansOf(() => findRecords(db, actor, { pageSize: 50, ...input() }), /from "records"/);
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      const onRecords = plan.nodes.filter((n) => n.relation === 'records');
      const summary = JSON.stringify(plan.nodes);
      expect(onRecords.length, summary).toBeGreaterThan(0);
      expect(
        onRecords.some((n) => n.type === 'Seq Scan'),
        summary,
      ).toBe(false);
      expect(
        onRecords.some((n) => expected.test(n.index ?? '')),
        summary,
      ).toBe(true);
    }
  });
});

describe('lists of one folder', () => {
  // The trigram index keys the folder as `folder_id || ''` (migration 0030): keyed plainly, it
  // answered a list's `folder_id = …` too, and PostgreSQL ANDed every entry of the folder with a
  // filter's index (docs/performance.md, "Search").
  const inputs: [string, Omit<Parameters<typeof findRecords>[2], 'folderId'>][] = [
    ['a NUMBER range, newest first', { filter: { 'data.score': { gte: '95' } } }],
    ['a NUMBER range, by update', { filter: { 'data.score': { gte: '95' } }, sort: '-updatedAt' }],
    [
      'a SELECT value and a range, by title',
      { filter: { 'data.stage': 'Customer', 'data.score': { lt: '5' } }, sort: 'title' },
    ],
    ['a SELECT value, by score', { filter: { 'data.stage': 'Customer' }, sort: '-data.score' }],
    ['no filter', {}],
  ];

  it.each(inputs)('never read the trigram index without q: %s', async (_name, input) => {
    for (const folderId of foldered.folderIds.slice(0, 3)) {
      const plans = await plansOf(
        () => findRecords(db, foldered.actor, { pageSize: 50, folderId, ...input }),
        /from "records"/,
      );
      expect(plans.length).toBeGreaterThan(0);
      for (const plan of plans) {
        expect(plan.nodes.map((n) => n.index).filter(Boolean), JSON.stringify(plan.nodes)).not.toContain(
          'records_search_idx',
        );
      }
    }
  });

  it("ask the trigram index for the folder's matches of a rare term", async () => {
    const folderId = foldered.folderIds[4] ?? '';
    const plans = await plansOf(
      () => findRecords(db, foldered.actor, { pageSize: 50, folderId, q: 'contact 1234 ' }),
      /from "records"/,
    );
    const rest = plans.find((p) => p.text.includes(`("records"."folder_id" || '') = $`));
    expect(rest, plans.map((p) => p.text).join('\n')).toBeDefined();
    expect(rest?.nodes.map((n) => n.index)).toContain('records_search_idx');
  });
});
