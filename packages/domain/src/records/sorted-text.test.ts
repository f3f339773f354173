import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFolderField } from '../folders/index.ts';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { parseSort } from '../shared/list-sort.ts';
import { everyPage, newWorkspace, openTestDb, seededRandom, type TestDb } from '../testing/fixtures.ts';
import { createRecords, createRecordsInput } from './create-records.ts';
import { findRecords } from './find-records.ts';
import { searchWalk } from './list-records.ts';
import { recordFields } from './record-fields.ts';
import { sortedText } from './sorted-text.ts';

/**
 * Lists sorted by a TEXT, EMAIL or URL field walk the order of its short values when the
 * workspace holds no long one (sorted-text.ts, docs/performance.md, "Sorted by a TEXT field").
 * Each list here is walked page by page and compared with one ORDER BY over the table, which
 * knows nothing of that index: as a workspace gains a long value, loses it to the Trash, and
 * with `q` under small walk budgets, so that the walk, its second step and the rest all run.
 */

const SEED = Math.floor(Math.random() * 2 ** 31);
const SEARCH_WALK = { ...searchWalk };
const WORDS = [
  'Acme',
  'acme',
  'Ärzte',
  'Zeta',
  'zeta',
  '',
  ' ',
  'Northwind',
  'Łódź',
  'a',
  'A',
  '😀',
  'Acme Labs',
];

let t: TestDb;
let actor: Actor;
let people: string;
/** The record whose company is given a long value, then trashed. */
let target: string;

beforeAll(async () => {
  console.log(`sorted-text: SEED=${SEED}`);
  const random = seededRandom(SEED);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  t = await openTestDb();
  const mine = await newWorkspace(t.db, 'Sorted');
  actor = mine.actor;
  people = mine.peopleFolderId;
  await addFolderField(t.db, actor, { id: people, key: 'site', label: 'Site', type: 'URL' });
  const items = Array.from({ length: 240 }, (_, n) => ({
    folderId: people,
    title: `${pick(['Ada', 'Bo', 'Cy'])} ${n}`,
    data: {
      ...(random() < 0.8 ? { company: `${pick(WORDS)}${random() < 0.3 ? ` ${pick(WORDS)}` : ''}` } : {}),
      ...(random() < 0.5 ? { site: `https://${pick(['a', 'b', 'c'])}.example.com/${n % 7}` } : {}),
    },
  }));
  const ids: string[] = [];
  for (let i = 0; i < items.length; i += 100) {
    const made = await createRecords(
      t.db,
      actor,
      createRecordsInput.parse({ items: items.slice(i, i + 100) }),
    );
    ids.push(...made.flatMap((o) => (o.ok ? [o.data.id] : [])));
  }
  expect(ids).toHaveLength(items.length);
  target = ids[7] as string;
  // A few in the Trash, which the indexes do not hold.
  await t.query('update records set trashed_at = now() where workspace_id = $1 and id = any($2)', [
    actor.workspaceId,
    ids.filter((_, i) => i % 17 === 0 && i !== 7),
  ]);
}, 120_000);
afterAll(async () => {
  Object.assign(searchWalk, SEARCH_WALK);
  await t?.close();
});

/** The list as one ORDER BY gives it: values in order, then the records without one, by id. */
async function expected(key: string, dir: 'asc' | 'desc', trashed: boolean, q?: string): Promise<string[]> {
  const rows = await t.query<{ id: string }>(
    `select id from records
      where workspace_id = $1 and folder_id = $2 and (trashed_at is not null) = $3
        and ($4::text is null or search_text ilike '%' || $4 || '%')
      order by (data -> '${key}') ${dir} nulls last, id ${dir}`,
    [actor.workspaceId, people, trashed, q ?? null],
  );
  return rows.map((r) => r.id);
}

/** Every page of the list, by cursor. */
function walked(key: string, dir: 'asc' | 'desc', pageSize: number, trashed: boolean, q?: string) {
  return everyPage(
    (cursor) =>
      findRecords(t.db, actor, {
        folderId: people,
        sort: `${dir === 'desc' ? '-' : ''}data.${key}`,
        pageSize,
        ...(trashed ? { trashed: 'true' } : {}),
        ...(q ? { q } : {}),
        ...(cursor ? { cursor } : {}),
      }),
    500,
  );
}

async function walkable(key: string): Promise<boolean> {
  const folder = await loadFolder(t.db, actor, people);
  const { sortable } = await recordFields(t.db, actor, folder, [], `data.${key}`);
  const sort = parseSort(`data.${key}`, sortable, 'data.<key>');
  return (await sortedText(t.db, actor.workspaceId, sort, false)) !== undefined;
}

const combination = fc.record({
  key: fc.constantFrom('company', 'site'),
  dir: fc.constantFrom('asc' as const, 'desc' as const),
  pageSize: fc.integer({ min: 1, max: 60 }),
  trashed: fc.boolean(),
  q: fc.option(fc.constantFrom('acme', 'ZETA', 'a', 'example', 'Łó', 'nobody'), { nil: undefined }),
  rows: fc.integer({ min: 1, max: 200 }),
  reads: fc.integer({ min: 1, max: 60 }),
});

async function listsHold(runs: number) {
  await fc.assert(
    fc.asyncProperty(combination, async (c) => {
      Object.assign(searchWalk, { rows: c.rows, reads: c.reads });
      const got = await walked(c.key, c.dir, c.pageSize, c.trashed, c.q);
      expect(got).toEqual(await expected(c.key, c.dir, c.trashed, c.q));
    }),
    { seed: SEED, numRuns: runs },
  );
}

describe('a list sorted by a TEXT or URL field', () => {
  it('walks the order of its values, in the same order as one ORDER BY', async () => {
    expect(await walkable('company')).toBe(true);
    expect(await walkable('site')).toBe(true);
    await listsHold(60);
  });

  it('is listed as before while the workspace holds a long value, in its place, and walked again once that is trashed', async () => {
    // Sorts among the others (after "Acme…"), not with the records that have none.
    await t.query(
      `update records set data = data || jsonb_build_object('company', $3::text) where workspace_id = $1 and id = $2`,
      [actor.workspaceId, target, `B${'x'.repeat(600)}`],
    );
    expect(await walkable('company')).toBe(false);
    expect(await walkable('site')).toBe(true);
    const ascending = await walked('company', 'asc', 25, false);
    expect(ascending).toEqual(await expected('company', 'asc', false));
    expect(ascending.indexOf(target)).toBeLessThan(ascending.length - 50);
    await listsHold(30);
    await t.query('update records set trashed_at = now() where workspace_id = $1 and id = $2', [
      actor.workspaceId,
      target,
    ]);
    expect(await walkable('company')).toBe(true);
    await listsHold(30);
  });

  it('is listed as before when the key has no indexes', async () => {
    await t.query('drop index if exists records_text_site_long_idx');
    expect(await walkable('site')).toBe(false);
    const got = await walked('site', 'desc', 7, false, 'example');
    expect(got).toEqual(await expected('site', 'desc', false, 'example'));
  });
});
