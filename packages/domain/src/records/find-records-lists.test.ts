import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import { addFolderField } from '../folders/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { FilterNodeInput } from '../shared/list-filter.ts';
import { newWorkspace, openTestDb, seededRandom, type TestDb } from '../testing/fixtures.ts';
import { createRecords, createRecordsInput } from './create-records.ts';
import { findRecords } from './find-records.ts';
import { findRelated } from './find-related.ts';
import { searchWalk } from './list-records.ts';
import { queryRecords } from './query-records.ts';

/** The walk's budgets as the service has them, put back after a test lowered them. */
const SEARCH_WALK = { ...searchWalk };

/**
 * Lists hold for every combination (docs/api.md, "Search"): on random data, random
 * combinations of `q` with every sort, filters, folder, Trash, `updatedSince`, `expand`, page
 * sizes, cursor walks, `page=N` and `count=true`, on the list, `POST /records/query` and a related
 * list. For each, the pages walked with `q` must be the pages walked without it with the
 * records that do not match left out (which records match is asked of PostgreSQL apart, by
 * ILIKE over the ids of the list without `q`); no page may hold an id twice; `meta.total`
 * must be the walk's length; a page by number must be that slice of the walk. The search's
 * walk is given random budgets, so that every path (the walk, its second step, the rest) runs.
 *
 * The data and the combinations come from one seed, printed; LISTS_SEED=<seed> replays a run
 * (fast-check prints the path of a failing combination too), LISTS_RUNS sets how many
 * combinations each surface tries.
 */

const SEED = process.env.LISTS_SEED ? Number(process.env.LISTS_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = process.env.LISTS_RUNS ? Number(process.env.LISTS_RUNS) : 400;

let t: TestDb;
let actor: Actor;
let people: string;
let companies: string;
/** Companies with many people linked, for the related lists. */
const employers: string[] = [];
/** Instants the records were made and changed at: few, so that many records share one. */
const instants: string[] = [];

const FIRST = ['Ada', 'ÁLVARO', 'Łukasz', 'Zhang', 'jo', 'Mary-Jo', 'Søren', 'Amélie', 'Omar', 'ZOË'];
const LAST = ['Garcia', 'Müller', 'Nguyen', "O'Brien", 'Przybylski', 'Smith', 'Johnson', 'Zhao', 'Dubois'];
const LIFECYCLE = ['Lead', 'Prospect', 'Customer', 'Churned'];
const WORDS = ['renewal', 'invoice', 'Lisbon', '50%_off', 'back\\slash', 'pilot', 'security', 'tea'];
/** Terms a search may be for: whole words, parts of them, in other cases, and none. */
const TERMS = [
  ...FIRST,
  ...LAST,
  ...WORDS,
  'gmail',
  'EXAMPLE.COM',
  '555',
  '+49',
  'son',
  'arc',
  'ü',
  'a',
  'jo',
  'Zh',
  'é',
  '%',
  '_',
  '\\',
  '5',
  '@',
  'zqxjv',
  'nobody here',
];

beforeAll(async () => {
  console.log(`find-records-lists: LISTS_SEED=${SEED} LISTS_RUNS=${RUNS}`);
  const random = seededRandom(SEED);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  t = await openTestDb();
  const mine = await newWorkspace(t.db, 'Mine');
  const other = await newWorkspace(t.db, 'Other');
  actor = mine.actor;
  people = mine.peopleFolderId;
  companies = (
    await createFolder(t.db, actor, {
      name: 'Companies',
      fields: [
        { key: 'industry', label: 'Industry', type: 'SELECT', options: ['Software', 'Retail'] },
        { key: 'score', label: 'Size', type: 'NUMBER' },
        { key: 'notes', label: 'Notes', type: 'TEXT' },
      ],
    })
  ).id;
  const fields: Omit<Parameters<typeof addFolderField>[2], 'id'>[] = [
    { key: 'score', label: 'Score', type: 'NUMBER' },
    { key: 'vip', label: 'VIP', type: 'BOOLEAN' },
    { key: 'born', label: 'Born', type: 'DATE' },
    { key: 'work', label: 'Work email', type: 'EMAIL' },
    { key: 'site', label: 'Site', type: 'URL' },
    { key: 'tags', label: 'Tags', type: 'MULTI_SELECT', options: ['a', 'b', 'c'] },
    { key: 'notes', label: 'Notes', type: 'TEXT' },
  ];
  for (const field of fields) {
    await addFolderField(t.db, actor, { id: people, ...field });
  }
  await addFolderField(t.db, actor, {
    id: people,
    key: 'employer',
    label: 'Employer',
    type: 'RELATION',
    relation: { folderId: companies, cardinality: 'ONE' },
    inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
  });
  for (let i = 0; i < 40; i++) {
    instants.push(new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 300) * 86_400_000).toISOString());
  }
  const text = () => {
    const parts = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
      pick([...WORDS, ...LAST, ...FIRST]),
    );
    // One in twelve is over 600 bytes, which the walk's index does not hold.
    return random() < 1 / 12 ? `${'lorem ipsum '.repeat(60)}${parts.join(' ')}` : parts.join(' ');
  };
  const company = (n: number) => ({
    folderId: companies,
    title: `${pick(LAST)} ${pick(['Holdings', 'Labs', 'GmbH'])} ${n % 7}`,
    ...(random() < 0.5
      ? {
          email: `info@${pick(LAST)
            .toLowerCase()
            .replace(/[^a-z]/g, '')}.example.com`,
        }
      : {}),
    data: {
      ...(random() < 0.8 ? { industry: pick(['Software', 'Retail']) } : {}),
      ...(random() < 0.7 ? { score: Math.floor(random() * 10) * 10 } : {}),
      ...(random() < 0.5 ? { notes: text() } : {}),
    },
  });
  const madeCompanies = await createRecords(
    t.db,
    actor,
    createRecordsInput.parse({ items: Array.from({ length: 40 }, (_, n) => company(n)) }),
  );
  for (const outcome of madeCompanies.slice(0, 4)) if (outcome.ok) employers.push(outcome.data.id);
  const person = () => {
    const first = pick(FIRST);
    const last = pick(LAST);
    const data: Record<string, unknown> = {};
    if (random() < 0.7) data.company = pick([...LAST, 'Acme', 'Northwind']);
    if (random() < 0.8) data.lifecycle = pick(LIFECYCLE);
    if (random() < 0.7) data.score = Math.floor(random() * 20) * 5;
    if (random() < 0.5) data.vip = random() < 0.5;
    if (random() < 0.6)
      data.born = `19${50 + Math.floor(random() * 50)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`;
    if (random() < 0.3) data.work = `${first.toLowerCase().replace(/[^a-z]/g, '')}@work.example.com`;
    if (random() < 0.3) data.site = `https://${last.toLowerCase().replace(/[^a-z]/g, '')}.example.com`;
    if (random() < 0.4) data.tags = ['a', 'b', 'c'].filter(() => random() < 0.5);
    if (random() < 0.5) data.notes = text();
    if (random() < 0.6) data.employer = pick(employers);
    return {
      folderId: people,
      title: random() < 0.05 ? pick(['Same Title', 'same title']) : `${first} ${last}`,
      ...(random() < 0.7
        ? {
            email: `${first.toLowerCase().replace(/[^a-z]/g, '')}.${Math.floor(random() * 90)}@${pick(['gmail.com', 'example.com', 'Example.COM'])}`,
          }
        : {}),
      ...(random() < 0.6
        ? { phone: `${pick(['+49 30', '(555)', '+1 555'])} ${Math.floor(random() * 1e6)}` }
        : {}),
      data,
    };
  };
  for (let batch = 0; batch < 6; batch++) {
    const outcomes = await createRecords(
      t.db,
      actor,
      createRecordsInput.parse({ items: Array.from({ length: 100 }, person) }),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
  }
  await createRecords(
    t.db,
    other.actor,
    createRecordsInput.parse({
      items: Array.from({ length: 100 }, () => ({ ...person(), folderId: other.peopleFolderId, data: {} })),
    }),
  );
  // Instants from a few dozen, so that many records tie on them; one record in ten in the Trash.
  const ids = await t.query<{ id: string }>('select id from records where workspace_id = $1 order by id', [
    actor.workspaceId,
  ]);
  for (const { id } of ids) {
    const made = pick(instants);
    const changed = random() < 0.4 ? made : pick(instants);
    // Changed when made or later: the later of the two.
    const later = [made, changed].sort().at(-1) as string;
    await t.query(
      'update records set created_at = $2, updated_at = $3, trashed_at = $4 where workspace_id = $5 and id = $1',
      [id, made, later, random() < 0.1 && !employers.includes(id) ? later : null, actor.workspaceId],
    );
  }
  await t.query('analyze records');
}, 120_000);

afterAll(() => t?.close());

const SORTS = [
  'createdAt',
  'updatedAt',
  'title',
  'data.company',
  'data.lifecycle',
  'data.score',
  'data.vip',
  'data.born',
  'data.work',
  'data.site',
  'data.tags',
  'data.notes',
];

/** A filter in the query string's form (the list and related lists) and as a JSON node (query). */
const filterArb = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(...LIFECYCLE).map((v) => ({
    param: { 'data.lifecycle': v },
    node: { field: 'data.lifecycle', op: 'eq', value: v },
  })),
  fc.integer({ min: 0, max: 100 }).map((v) => ({
    param: { 'data.score': { gte: String(v) } },
    node: { field: 'data.score', op: 'gte', value: v },
  })),
  fc
    .boolean()
    .map((v) => ({ param: { 'data.vip': String(v) }, node: { field: 'data.vip', op: 'eq', value: v } })),
  fc.constantFrom('a', 'son', 'mü').map((v) => ({
    param: { title: { contains: v } },
    node: { field: 'title', op: 'contains', value: v },
  })),
  fc.constantFrom('true', 'false').map((v) => ({
    param: { 'data.company': { empty: v } },
    node: { field: 'data.company', op: 'empty', value: v === 'true' },
  })),
);

const comboArb = fc.record({
  q: fc.oneof(
    fc.constantFrom(...TERMS),
    fc.constantFrom(...TERMS).map((term) => term.toUpperCase()),
    fc.constantFrom(...TERMS).map((term) => term.slice(1, 4)),
  ),
  sort: fc.constantFrom(...SORTS),
  desc: fc.boolean(),
  filter: filterArb,
  folder: fc.constantFrom('none', 'people', 'people', 'companies'),
  trashed: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  updatedSince: fc.option(fc.integer({ min: 0, max: 39 }), { nil: undefined }),
  pageSize: fc.oneof(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 8, max: 200 })),
  count: fc.boolean(),
  expand: fc.boolean(),
  byNumber: fc.integer({ min: 0, max: 4 }),
  walkRows: fc.constantFrom(3, 30, SEARCH_WALK.rows),
  walkReads: fc.constantFrom(1, 5, SEARCH_WALK.reads),
});
type Combo = typeof comboArb extends fc.Arbitrary<infer T> ? T : never;

type Page = { data: { id: string }[]; meta: { nextCursor: string | null; hasMore: boolean; total?: number } };

/** Every id of a list, page by page through its cursor (at most `maxPages`), checking each page. */
async function walk(list: (cursor?: string) => Promise<Page>, maxPages = 80) {
  const ids: string[] = [];
  const totals = new Set<number | undefined>();
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await list(cursor);
    const own = page.data.map((r) => r.id);
    expect(new Set(own).size, 'an id twice in one page').toBe(own.length);
    ids.push(...own);
    totals.add(page.meta.total);
    expect(page.meta.hasMore).toBe(page.meta.nextCursor !== null);
    if (!page.meta.nextCursor) return { ids, complete: true, totals };
    cursor = page.meta.nextCursor;
  }
  return { ids, complete: false, totals };
}

/** The ids among `ids` whose records match `q` as ILIKE '%q%' over their search text. */
async function matching(ids: string[], q: string): Promise<Set<string>> {
  const escaped = q.trim().replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await t.query<{ id: string }>(
    'select id from records where workspace_id = $1 and id = any($2::text[]) and search_text ilike $3',
    [actor.workspaceId, ids, `%${escaped}%`],
  );
  return new Set(rows.map((r) => r.id));
}

/** The combination's list with or without `q`, on one of the three surfaces. */
type Surface = (
  combo: Combo,
  q: string | undefined,
  paging: { pageSize: number; cursor?: string; page?: number },
) => Promise<Page>;

const sortOf = (c: Combo) => `${c.desc ? '-' : ''}${c.sort}`;
const since = (c: Combo) =>
  c.updatedSince === undefined ? {} : { updatedSince: instants[c.updatedSince] as string };
const folderOf = (c: Combo) =>
  c.folder === 'people' ? { folderId: people } : c.folder === 'companies' ? { folderId: companies } : {};

const surfaces: Record<string, Surface> = {
  list: (c, q, paging) =>
    findRecords(t.db, actor, {
      ...(q !== undefined ? { q } : {}),
      sort: sortOf(c),
      ...(c.filter ? { filter: c.filter.param } : {}),
      ...folderOf(c),
      ...(c.trashed ? { trashed: 'true' as const } : {}),
      ...since(c),
      ...(c.count ? { count: 'true' as const } : {}),
      ...(c.expand && c.folder === 'people' ? { expand: 'employer' } : {}),
      ...paging,
    }) as Promise<Page>,
  query: (c, q, paging) =>
    queryRecords(t.db, actor, {
      ...(q !== undefined ? { q } : {}),
      sort: sortOf(c),
      ...(c.filter
        ? {
            filter:
              c.byNumber % 2 === 0
                ? (c.filter.node as FilterNodeInput)
                : { or: [c.filter.node as FilterNodeInput, { field: 'title', op: 'contains', value: 'jo' }] },
          }
        : {}),
      ...folderOf(c),
      ...(c.trashed ? { trashed: true } : {}),
      ...since(c),
      ...(c.count ? { count: true } : {}),
      ...(c.expand && c.folder === 'people' ? { expand: 'employer' } : {}),
      ...paging,
    }) as Promise<Page>,
  related: (c, q, paging) =>
    findRelated(t.db, actor, {
      id: employers[(c.walkRows + c.walkReads) % employers.length] as string,
      field: 'people',
      ...(q !== undefined ? { q } : {}),
      sort: sortOf(c),
      ...(c.filter ? { filter: c.filter.param } : {}),
      ...since(c),
      ...(c.count ? { count: 'true' as const } : {}),
      ...paging,
    }) as Promise<Page>,
};

/** A sort by a field that only People have is refused without a folder, or in Companies: not a combination. */
function valid(c: Combo, surface: string) {
  const peopleOnly = [
    'data.company',
    'data.lifecycle',
    'data.vip',
    'data.born',
    'data.work',
    'data.site',
    'data.tags',
  ];
  const filterField = c.filter ? Object.keys(c.filter.param)[0] : undefined;
  if (surface === 'related') return true;
  if (c.folder === 'companies') {
    if (peopleOnly.includes(c.sort)) return false;
    if (filterField && peopleOnly.includes(filterField)) return false;
  }
  return true;
}

async function check(surface: string, c: Combo) {
  const list = surfaces[surface] as Surface;
  const all = await walk(
    (cursor) => list({ ...c, count: false }, undefined, { pageSize: 200, ...(cursor ? { cursor } : {}) }),
    1_000,
  );
  expect(all.complete).toBe(true);
  const matches = await matching(all.ids, c.q);
  const expected = all.ids.filter((id) => matches.has(id));
  Object.assign(searchWalk, { rows: c.walkRows, reads: c.walkReads });
  try {
    const searched = await walk((cursor) =>
      list(c, c.q, { pageSize: c.pageSize, ...(cursor ? { cursor } : {}) }),
    );
    expect(searched.ids).toEqual(searched.complete ? expected : expected.slice(0, searched.ids.length));
    if (c.count) expect([...searched.totals]).toEqual([expected.length]);
    if (c.expand && c.folder === 'people' && surface !== 'related') {
      const first = (await list(c, c.q, { pageSize: c.pageSize })) as Page & {
        data: { expanded?: Record<string, unknown> }[];
      };
      for (const item of first.data) expect(item.expanded && 'employer' in item.expanded).toBe(true);
    }
    if (c.byNumber > 0) {
      const n = c.byNumber + 1;
      const page = await list(c, c.q, { pageSize: c.pageSize, page: n });
      expect(page.data.map((r) => r.id)).toEqual(expected.slice((n - 1) * c.pageSize, n * c.pageSize));
      expect(page.meta.hasMore).toBe(expected.length > n * c.pageSize);
    }
  } finally {
    Object.assign(searchWalk, SEARCH_WALK);
  }
}

describe('every combination of a list with q', () => {
  for (const surface of Object.keys(surfaces)) {
    it(`holds on ${surface === 'list' ? 'GET /records' : surface === 'query' ? 'POST /records/query' : 'GET /records/{id}/related/{field}'}`, async () => {
      await fc.assert(
        fc.asyncProperty(comboArb, async (c) => {
          fc.pre(valid(c, surface));
          await check(surface, c);
        }),
        { numRuns: RUNS, seed: SEED, verbose: 1 },
      );
    }, 600_000);
  }
});
