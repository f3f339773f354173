import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink, type TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';
import { nestBracketKeys } from './query-string.ts';

/**
 * Filters, sorts and counts on both surfaces (docs/api.md, "Filters, sorts and counts"):
 * `filter[…]` in REST query strings, `POST /records/query`, and the same procedures on tRPC.
 */

let app: TestApp;
let ws: TestWorkspace;
let folderId: string;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
  const folder = await ok('POST', '/folders', 201, {
    name: 'Leads',
    fields: [
      { key: 'lifecycle', label: 'Lifecycle', type: 'SELECT', options: ['Lead', 'Customer'] },
      { key: 'score', label: 'Score', type: 'NUMBER' },
    ],
  });
  folderId = folder.data.id;
  for (const [title, lifecycle, score] of [
    ['Ada', 'Lead', 20],
    ['Bob', 'Customer', 55],
    ['Cy', 'Customer', 58],
    ['Di', 'Lead', 90],
  ] as const) {
    await ok('POST', '/records', 201, { folderId, title, data: { lifecycle, score } });
  }
});
afterAll(() => app?.stop());

const api = (method: string, path: string, body?: unknown) =>
  app.api(ws.apiKey, method, `/api/v1${path}`, body);

async function ok(method: string, path: string, status: number, body?: unknown) {
  const res = await api(method, path, body);
  expect(res.status, res.text).toBe(status);
  return res.body;
}

const titles = (body: { data: { title: string }[] }) => body.data.map((r) => r.title);

describe('GET /api/v1/records with filter[…], sort and count', () => {
  it('reads bracketed filters, ANDs them, sorts and counts', async () => {
    const q = `folderId=${folderId}&filter[data.lifecycle]=Customer&filter[data.score][gte]=50&filter[data.score][lt]=57`;
    expect(titles(await ok('GET', `/records?${q}`, 200))).toEqual(['Bob']);
    const encoded = `folderId=${folderId}&${encodeURIComponent('filter[data.score][gt]')}=50&sort=-data.score&count=true`;
    const body = await ok('GET', `/records?${encoded}`, 200);
    expect(titles(body)).toEqual(['Di', 'Cy', 'Bob']);
    expect(body.meta.total).toBe(3);
    expect(body.meta.totalEstimate).toBeUndefined();
    expect(titles(await ok('GET', `/records?filter[title][in]=Ada,Di&sort=title`, 200))).toEqual([
      'Ada',
      'Di',
    ]);
  });

  it("gives the planner's estimate with count=estimate, beside the exact count, on records, deals and tasks", async () => {
    const q = `folderId=${folderId}&filter[data.score][gt]=50`;
    const estimated = await ok('GET', `/records?${q}&count=estimate`, 200);
    expect(titles(estimated)).toEqual(titles(await ok('GET', `/records?${q}`, 200)));
    // An estimate is a whole number of rows and never poses as the exact count.
    expect(estimated.meta.total).toBeUndefined();
    expect(Number.isInteger(estimated.meta.totalEstimate)).toBe(true);
    expect(estimated.meta.totalEstimate).toBeGreaterThanOrEqual(0);
    const pipeline = (await ok('GET', '/pipelines', 200)).data[0];
    for (const path of [
      `/deals?pipelineId=${pipeline.id}&count=estimate`,
      '/tasks?count=estimate',
      '/tasks?sort=dueAt&count=estimate',
    ]) {
      const meta = (await ok('GET', path, 200)).meta;
      expect(meta.total, path).toBeUndefined();
      expect(Number.isInteger(meta.totalEstimate), path).toBe(true);
    }
    const refused = await api('GET', '/records?count=about');
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/count.*true, false, estimate/);
  });

  it('answers 400 naming the field and the operator', async () => {
    const cases: [string, string, RegExp][] = [
      ['filter[data.score][gte]=many', 'filter[data.score][gte]', /data\.score gte: must be a number/],
      ['filter[data.lifecycle]=Churned', 'filter[data.lifecycle]', /must be one of: Lead, Customer/],
      ['filter[title][between]=a', 'filter[title][between]', /unknown operator between/],
      ['filter[title]=a&filter[title][ne]=b', 'filter[title][ne]', /both as a value and with/],
      ['filter[a][b][c]=1', 'filter[a][b][c]', /deeper than 2 brackets/],
      ['filter[title]=a&filter[title]=b', 'filter[title]', /more than once/],
      ['filter=title', 'filter', /./],
      ['sort=-color', 'sort', /cannot sort by color/],
      ['sort=-data.nope', 'sort', /cannot sort by data\.nope: it is not a field of this folder/],
      [
        `sort=data.${'x'.repeat(150)}`,
        'sort',
        /cannot sort by data\.x+; sort by createdAt, updatedAt, title or data\.<key>/,
      ],
      ['count=yes', 'count', /./],
    ];
    for (const [query, path, message] of cases) {
      const res = await api('GET', `/records?folderId=${folderId}&${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(res.body.error.details, query).toEqual(
        expect.arrayContaining([{ path, message: expect.stringMatching(message) }]),
      );
    }
  });

  it('refuses a cursor under another sort or filter, and pages by Link-free cursors to the end', async () => {
    const first = await ok('GET', `/records?folderId=${folderId}&sort=data.score&pageSize=3`, 200);
    expect(titles(first)).toEqual(['Ada', 'Bob', 'Cy']);
    const cursor = encodeURIComponent(first.meta.nextCursor);
    const next = await ok(
      'GET',
      `/records?folderId=${folderId}&sort=data.score&pageSize=3&cursor=${cursor}`,
      200,
    );
    expect(titles(next)).toEqual(['Di']);
    expect(next.meta).toMatchObject({ page: null, hasMore: false, nextCursor: null });
    const other = await api('GET', `/records?folderId=${folderId}&sort=-data.score&cursor=${cursor}`);
    expect(other.status).toBe(400);
    expect(other.body.error.details).toEqual([
      { path: 'cursor', message: 'belongs to another sort or other filters; start again without cursor' },
    ]);
    const filtered = await api(
      'GET',
      `/records?folderId=${folderId}&sort=data.score&filter[title]=Di&cursor=${cursor}`,
    );
    expect(filtered.status).toBe(400);
  });

  it('polls newest change first with sort=-updatedAt and updatedSince', async () => {
    const since = new Date().toISOString();
    const bob = (await ok('GET', `/records?filter[title]=Bob`, 200)).data[0].id;
    const ada = (await ok('GET', `/records?filter[title]=Ada`, 200)).data[0].id;
    await ok('PATCH', `/records/${bob}`, 200, { data: { score: 56 } });
    await ok('PATCH', `/records/${ada}`, 200, { data: { score: 21 } });
    const polled = await ok('GET', `/records?updatedSince=${encodeURIComponent(since)}&sort=-updatedAt`, 200);
    expect(titles(polled)).toEqual(['Ada', 'Bob']);
  });
});

describe('POST /api/v1/records/query', () => {
  it('takes a nested JSON filter and answers like the list', async () => {
    const body = await ok('POST', '/records/query', 200, {
      folderId,
      filter: {
        or: [
          { field: 'data.lifecycle', op: 'eq', value: 'Lead' },
          { and: [{ field: 'data.score', op: 'gte', value: 50 }, { not: { field: 'title', value: 'Cy' } }] },
        ],
      },
      sort: 'title',
      pageSize: 2,
      count: true,
    });
    expect(titles(body)).toEqual(['Ada', 'Bob']);
    expect(body.meta).toMatchObject({ page: 1, pageSize: 2, hasMore: true, total: 3 });
    const next = await ok('POST', '/records/query', 200, {
      folderId,
      filter: {
        or: [
          { field: 'data.lifecycle', op: 'eq', value: 'Lead' },
          { and: [{ field: 'data.score', op: 'gte', value: 50 }, { not: { field: 'title', value: 'Cy' } }] },
        ],
      },
      sort: 'title',
      pageSize: 2,
      cursor: body.meta.nextCursor,
    });
    expect(titles(next)).toEqual(['Di']);
  });

  it('refuses bad nodes, values and shapes with 400s naming them', async () => {
    const bad = await api('POST', '/records/query', {
      filter: { field: 'data.score', op: 'gt', value: '5x' },
    });
    expect(bad.status).toBe(400);
    const node = await api('POST', '/records/query', { filter: { or: [{ fields: 'title' }] } });
    expect(node.status).toBe(400);
    expect(node.body.error.details[0]).toEqual({
      path: 'filter.or.0.fields',
      message: 'is not a known field',
    });
    const deep = await api('POST', '/records/query', {
      filter: { not: { not: { not: { not: { not: { not: { field: 'title', value: 'x' } } } } } } },
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error.message).toMatch(/deeper than 6 levels/);
    const size = await api('POST', '/records/query', { pageSize: '50' });
    expect(size.status).toBe(400);
    expect(size.body.error.details[0].path).toBe('pageSize');
    // A sort by a custom key no folder has names `sort`, however long the key.
    for (const sort of ['-data.nope', `data.${'k'.repeat(150)}`]) {
      const unsortable = await api('POST', '/records/query', {
        sort,
        filter: { field: 'title', value: 'Ada' },
      });
      expect(unsortable.status, sort).toBe(400);
      expect(unsortable.body.error.details).toEqual([
        { path: 'sort', message: expect.stringMatching(/^cannot sort by data\.\w+[:;] /) },
      ]);
    }
  });
});

describe('GET /api/v1/records with q and a sort by a custom field', () => {
  // The records table of the web app sorts a column while a search is typed. These three
  // answered 500 once: the search's second statement wrote a JSON value as text.
  it.each(['data.lifecycle', '-data.lifecycle', 'data.company', '-data.company', 'title'])(
    'answers sort=%s like the sorted list without q, matches only',
    async (sort) => {
      const own = await app.createWorkspace();
      const call = (method: string, path: string, body?: unknown) =>
        app.api(own.apiKey, method, `/api/v1${path}`, body);
      const folders = await call('GET', '/folders');
      const people = folders.body.data.find((f: { name: string }) => f.name === 'People').id as string;
      const items = Array.from({ length: 60 }, (_, i) => ({
        folderId: people,
        title: i % 3 === 0 ? `Ana Garcia ${i}` : `Bo Smith ${i}`,
        data: {
          ...(i % 5 === 0 ? {} : { lifecycle: ['Lead', 'Customer', 'Churned'][i % 3] }),
          ...(i % 7 === 0 ? {} : { company: `Company ${i % 9}` }),
        },
      }));
      expect((await call('POST', '/records/batch', { items })).status).toBe(200);
      const all = await call('GET', `/records?folderId=${people}&sort=${sort}&pageSize=200`);
      expect(all.status).toBe(200);
      const want = all.body.data
        .filter((r: { title: string }) => r.title.includes('Garcia'))
        .map((r: { id: string }) => r.id);
      expect(want).toHaveLength(20);
      const found = await call('GET', `/records?folderId=${people}&q=garcia&sort=${sort}`);
      expect(found.status, found.text).toBe(200);
      expect(found.body.data.map((r: { id: string }) => r.id)).toEqual(want);
      const paged: string[] = [];
      let next = `/records?folderId=${people}&q=garcia&sort=${sort}&pageSize=3`;
      for (let pages = 0; pages < 20 && next; pages++) {
        const page = await call('GET', next);
        expect(page.status, page.text).toBe(200);
        paged.push(...page.body.data.map((r: { id: string }) => r.id));
        next = page.body.meta.nextCursor
          ? `/records?folderId=${people}&q=garcia&sort=${sort}&pageSize=3&cursor=${page.body.meta.nextCursor}`
          : '';
      }
      expect(paged).toEqual(want);
    },
  );
});

describe('the same procedures on tRPC', () => {
  const client = () =>
    createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) }),
      ],
    });

  it('records.list takes filter as an object, records.query the JSON tree', async () => {
    const trpc = client();
    const listed = await trpc.records.list.query({
      folderId,
      filter: { 'data.score': { gte: 50 }, 'data.lifecycle': 'Customer' },
      sort: '-data.score',
      count: 'true',
    });
    expect(listed.data.map((r) => r.title)).toEqual(['Cy', 'Bob']);
    expect(listed.meta.total).toBe(2);
    const queried = await trpc.records.query.query({
      filter: { and: [{ field: 'data.score', op: 'lt', value: 30 }] },
    });
    expect(queried.data.map((r) => r.title)).toEqual(['Ada']);
    const refused = await trpc.records.query
      .query({ filter: { field: 'data.score', op: 'gt', value: 'x' } })
      .then(
        () => expect.unreachable('the call succeeded'),
        (e: unknown) => e as TRPCClientError<AppRouter>,
      );
    expect(refused.data?.httpStatus).toBe(400);
  });
});

describe('nestBracketKeys', () => {
  it('reads brackets into objects without a prototype and leaves other names alone', () => {
    const lists = Object.assign(Object.create(null), {
      'filter[data.score][gte]': ['50'],
      'filter[title]': ['Ada'],
      'a]b[': ['x'],
      q: ['1', '2'],
    });
    const nested = nestBracketKeys(lists);
    expect(Object.keys(nested).sort()).toEqual(['a]b[', 'filter', 'q']);
    expect(nested.q).toEqual(['1', '2']);
    const filter = nested.filter![0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(filter)).toBeNull();
    expect(JSON.parse(JSON.stringify(filter))).toEqual({ 'data.score': { gte: '50' }, title: 'Ada' });
    expect(() => nestBracketKeys(Object.assign(Object.create(null), { 'f[]': ['1'] }))).toThrow(
      /empty brackets/,
    );
  });
});
