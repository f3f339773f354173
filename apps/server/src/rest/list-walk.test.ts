import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Cursor walks while others write (docs/api.md, "Cursors under sorts and filters"): between
 * every two pages, records are created and changed. A record that exists, with the same sort
 * value, for the whole walk is returned exactly once, whatever the sort and the filter; under
 * `sort=updatedAt` a record changed during the walk comes again at the end, with its change.
 */

interface Row {
  id: string;
  title: string;
  phone: string | null;
  data: { lifecycle?: string; score?: number };
  updatedAt: string;
}

let app: TestApp;
let ws: TestWorkspace;
let folderId: string;
let made = 0;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 100_000 });
  const folder = await ok('POST', '/folders', 201, {
    name: 'Walked',
    fields: [
      { key: 'lifecycle', label: 'Lifecycle', type: 'SELECT', options: ['Lead', 'Customer'] },
      { key: 'score', label: 'Score', type: 'NUMBER' },
    ],
  });
  folderId = folder.data.id;
  // 160 records: titles and scores repeat (ties are broken by id), a fifth have no score.
  for (let batch = 0; batch < 2; batch++) {
    const items = Array.from({ length: 80 }, () => newRecord());
    const answer = await ok('POST', '/records/batch', 200, { items });
    expect(answer.meta).toEqual({ succeeded: 80, failed: 0 });
  }
});
afterAll(() => app?.stop());

function newRecord() {
  const n = made++;
  return {
    folderId,
    title: `Contact ${String.fromCharCode(65 + (n % 13))}`,
    data: {
      lifecycle: n % 3 === 0 ? 'Customer' : 'Lead',
      ...(n % 5 === 4 ? {} : { score: (n * 37) % 11 }),
    },
  };
}

async function ok(method: string, path: string, status: number, body?: unknown) {
  const res = await app.api(ws.apiKey, method, `/api/v1${path}`, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  return res.body;
}

/** A deterministic sequence, so a failure repeats. */
function picker(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

/** Every page of a list, following nextCursor, reading fresh pages in between. */
async function fullList(
  read: (cursor?: string) => Promise<{ data: Row[]; meta: { nextCursor: string | null } }>,
) {
  const rows: Row[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await read(cursor);
    rows.push(...page.data);
    if (!page.meta.nextCursor) return rows;
    cursor = page.meta.nextCursor;
  }
  throw new Error('the list did not end within 100 pages');
}

interface Walk {
  name: string;
  read: (cursor?: string) => Promise<{ data: Row[]; meta: { nextCursor: string | null } }>;
  /** What the writes between pages change on existing records. */
  change: (row: Row, pick: (below: number) => number) => Record<string, unknown>;
}

const getList = (query: string) => (cursor?: string) =>
  ok('GET', `/records?folderId=${folderId}&pageSize=12&${query}${cursor ? `&cursor=${cursor}` : ''}`, 200);

const phoneChange = (_row: Row, pick: (below: number) => number) => ({
  phone: `+1 555 ${1000 + pick(9000)}`,
});

const walks: Walk[] = [
  { name: 'newest first (no sort)', read: getList(''), change: phoneChange },
  { name: 'sort=createdAt', read: getList('sort=createdAt'), change: phoneChange },
  { name: 'sort=title', read: getList('sort=title'), change: phoneChange },
  { name: 'sort=-title', read: getList('sort=-title'), change: phoneChange },
  {
    name: 'sort=data.score, rows without a score last',
    read: getList('sort=data.score'),
    change: phoneChange,
  },
  {
    name: 'sort=-data.score with filter[data.lifecycle]=Lead, scores changing',
    read: getList('sort=-data.score&filter[data.lifecycle]=Lead'),
    change: (_row, pick) => ({ data: { score: pick(11) } }),
  },
  {
    name: 'filter[data.score][gte]=3 sorted by title',
    read: getList('filter[data.score][gte]=3&sort=title'),
    change: phoneChange,
  },
  {
    name: 'POST /records/query with or and not, sort=-createdAt',
    read: (cursor) =>
      ok('POST', '/records/query', 200, {
        folderId,
        pageSize: 12,
        sort: '-createdAt',
        filter: {
          or: [
            { field: 'data.lifecycle', value: 'Customer' },
            { not: { field: 'data.score', op: 'lt', value: 5 } },
          ],
        },
        ...(cursor ? { cursor } : {}),
      }),
    change: phoneChange,
  },
  { name: 'sort=-updatedAt', read: getList('sort=-updatedAt'), change: phoneChange },
];

describe('a cursor walk while records are created and changed', () => {
  it.each(walks.map((w, i) => [w.name, w, i] as const))('%s', async (_name, walk, index) => {
    const pick = picker(index + 1);
    const before = await fullList(walk.read);
    expect(before.length).toBeGreaterThan(40);
    const changed = new Set<string>();
    const created: string[] = [];
    const seen: Row[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await walk.read(cursor);
      seen.push(...page.data);
      if (!page.meta.nextCursor) break;
      cursor = page.meta.nextCursor;
      // Between pages: two new records and two changed ones, anywhere in the order.
      for (let i = 0; i < 2; i++) created.push((await ok('POST', '/records', 201, newRecord())).data.id);
      for (let i = 0; i < 2; i++) {
        const row = before[pick(before.length)]!;
        await ok('PATCH', `/records/${row.id}`, 200, walk.change(row, pick));
        changed.add(row.id);
      }
    }
    const times = new Map<string, number>();
    for (const row of seen) times.set(row.id, (times.get(row.id) ?? 0) + 1);
    // A record untouched by the walk's writes: returned exactly once.
    for (const row of before) {
      if (changed.has(row.id) && walk.change !== phoneChange) continue;
      if (changed.has(row.id) && walk.name === 'sort=-updatedAt') continue;
      expect(times.get(row.id), `${row.title} ${row.id}`).toBe(1);
    }
    // New records sort last oldest first, and before the walk's position newest first.
    if (walk.name === 'sort=createdAt') for (const id of created) expect(times.get(id), id).toBe(1);
    if (walk.name.startsWith('newest first')) for (const id of created) expect(times.has(id), id).toBe(false);
    // Nothing is returned twice unless its sort value changed during the walk.
    for (const [id, n] of times) {
      if (n > 1) expect(changed.has(id) && walk.change !== phoneChange).toBe(true);
    }
  });

  it('sort=updatedAt (a catch-up sync): every record once, a changed one again with its change', async () => {
    const pick = picker(99);
    const start = await fullList(getList('sort=updatedAt'));
    const lastChange = new Map<string, string>();
    const seen: Row[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 200; pages++) {
      const page = await getList('sort=updatedAt')(cursor);
      seen.push(...page.data);
      if (!page.meta.nextCursor) break;
      cursor = page.meta.nextCursor;
      await ok('POST', '/records', 201, newRecord());
      if (pages < 15) {
        const row = start[pick(start.length)]!;
        const phone = `+1 555 ${1000 + pick(9000)}`;
        await ok('PATCH', `/records/${row.id}`, 200, { phone });
        lastChange.set(row.id, phone);
      }
    }
    const ids = seen.map((r) => r.id);
    for (const row of start) expect(ids, row.id).toContain(row.id);
    // What the walk saw last of each record is what it is now: a sync that applies the rows
    // in order ends with the current values.
    const latest = new Map(seen.map((r) => [r.id, r]));
    for (const [id, phone] of lastChange) expect(latest.get(id)?.phone).toBe(phone);
    for (const [id, n] of countOf(ids)) if (n > 1) expect(lastChange.has(id), id).toBe(true);
    // The walk is in updatedAt order.
    const stamps = seen.map((r) => Date.parse(r.updatedAt));
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });
});

function countOf(ids: string[]) {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}
