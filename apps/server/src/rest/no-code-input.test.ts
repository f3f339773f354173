import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * What n8n, Make and Zapier send (docs/api.md): custom values as strings, an empty `cursor=` on
 * the first page, and instants whose `+` was put in the URL unencoded.
 */

let app: TestApp;
let ws: TestWorkspace;
let folderId: string;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
  const folder = await api('POST', '/folders', {
    name: 'Imports',
    fields: [
      { key: 'score', label: 'Score', type: 'NUMBER' },
      { key: 'vip', label: 'VIP', type: 'BOOLEAN' },
      { key: 'since', label: 'Since', type: 'DATE' },
      { key: 'note', label: 'Note', type: 'TEXT' },
    ],
  });
  expect(folder.status, folder.text).toBe(201);
  folderId = folder.body.data.id;
});
afterAll(() => app?.stop());

const api = (method: string, path: string, body?: unknown) =>
  app.api(ws.apiKey, method, `/api/v1${path}`, body);

async function ok(method: string, path: string, status: number, body?: unknown) {
  const res = await api(method, path, body);
  expect(res.status, res.text).toBe(status);
  return res.body;
}

describe('custom values as no-code tools send them', () => {
  it('POST /records stores "42" as a number, "true" as a boolean and an n8n $now instant as its date', async () => {
    const created = await ok('POST', '/records', 201, {
      folderId,
      title: 'From n8n',
      data: { score: '42', vip: 'true', since: '2026-11-22T10:15:30.123+01:00', note: '42' },
    });
    const expected = { score: 42, vip: true, since: '2026-11-22', note: '42' };
    expect(created.data.data).toEqual(expected);
    expect((await ok('GET', `/records/${created.data.id}`, 200)).data.data).toEqual(expected);
  });

  it('keeps the date as written before the T, whatever the offset', async () => {
    const late = await ok('POST', '/records', 201, {
      folderId,
      title: 'Late evening in New York',
      data: { since: '2026-11-22T23:30:00-05:00', score: '-3', vip: 'FALSE' },
    });
    expect(late.data.data).toEqual({ since: '2026-11-22', score: -3, vip: false });
  });

  it('PATCH and upsert take the same forms', async () => {
    const email = `lenient.${Date.now()}@example.com`;
    const created = await ok('POST', '/records', 201, { folderId, title: 'Zap', email });
    const patched = await ok('PATCH', `/records/${created.data.id}`, 200, {
      data: { score: '12.5', vip: 'False', since: '2026-11-22T23:30:00Z' },
    });
    expect(patched.data.data).toEqual({ score: 12.5, vip: false, since: '2026-11-22' });
    const upserted = await ok('POST', '/records?upsert=email', 200, {
      folderId,
      title: 'Zap',
      email,
      data: { score: '7', vip: 'true' },
    });
    expect(upserted.data.id).toBe(created.data.id);
    expect(upserted.data.data).toEqual({ score: 7, vip: true, since: '2026-11-22' });
  });

  it('anything else stays a 400 naming each field', async () => {
    const res = await api('POST', '/records', {
      folderId,
      title: 'Bad',
      data: { score: '1e5', vip: 'yes', since: '2026-02-30T10:00:00Z' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([
      { path: 'data.score', message: 'must be a number' },
      { path: 'data.vip', message: 'must be true or false' },
      { path: 'data.since', message: 'must be a date YYYY-MM-DD' },
    ]);
    for (const score of ['', ' 42', '1,5', '12.']) {
      const one = await api('POST', '/records', { folderId, title: 'Bad', data: { score } });
      expect(one.status, score).toBe(400);
      expect(one.body.error.details, score).toEqual([{ path: 'data.score', message: 'must be a number' }]);
    }
  });
});

describe('an empty cursor= is the first page', () => {
  let pipelineId: string;

  beforeAll(async () => {
    for (const title of ['One', 'Two', 'Three']) {
      await ok('POST', '/records', 201, { folderId, title: `Paged ${title}` });
      await ok('POST', '/tasks', 201, { title: `Task ${title}`, dueAt: '2026-11-22T10:00:00Z' });
    }
    pipelineId = (await ok('GET', '/pipelines', 200)).data[0].id;
    for (const title of ['One', 'Two', 'Three']) {
      await ok('POST', '/deals', 201, { pipelineId, title: `Deal ${title}` });
    }
  });

  /** `cursor=` answers exactly what no cursor answers, and its nextCursor leads on. */
  async function sameAsFirstPage(path: string) {
    const join = path.includes('?') ? '&' : '?';
    const first = await ok('GET', `${path}${join}pageSize=2`, 200);
    const empty = await ok('GET', `${path}${join}pageSize=2&cursor=`, 200);
    expect(empty).toEqual(first);
    expect(empty.meta.page).toBe(1);
    if (empty.meta.hasMore) {
      const next = await ok('GET', `${path}${join}pageSize=2&cursor=${empty.meta.nextCursor}`, 200);
      expect(next.meta.page).toBeNull();
      expect(next.data[0].id).not.toBe(empty.data[0].id);
    }
    // Empty means absent, so it may go with page.
    expect(await ok('GET', `${path}${join}pageSize=2&cursor=&page=1`, 200)).toEqual(first);
    return empty;
  }

  it('on records', async () => {
    const page = await sameAsFirstPage(`/records?folderId=${folderId}`);
    expect(page.meta.hasMore).toBe(true);
  });

  it('on tasks, in either order', async () => {
    expect((await sameAsFirstPage('/tasks')).meta.hasMore).toBe(true);
    expect((await sameAsFirstPage('/tasks?sort=dueAt')).meta.hasMore).toBe(true);
  });

  it('on deals', async () => {
    expect((await sameAsFirstPage(`/deals?pipelineId=${pipelineId}`)).meta.hasMore).toBe(true);
  });

  it('on the event feed, whose cursor is after', async () => {
    // Past the feed's settling delay, so the events of the records above are listed (through
    // UTC: a sharded database applies only immutable functions to a column in an UPDATE).
    await app.service.db.execute(sql`
      update events set occurred_at = ((occurred_at at time zone 'UTC') - interval '1 minute') at time zone 'UTC'
       where workspace_id = ${ws.workspaceId}`);
    const first = await ok('GET', '/events?pageSize=2', 200);
    expect(first.data).toHaveLength(2);
    expect(await ok('GET', '/events?pageSize=2&after=', 200)).toEqual(first);
    const next = await ok('GET', `/events?pageSize=2&after=${first.meta.nextCursor}`, 200);
    expect(next.data[0].id).not.toBe(first.data[0].id);
    expect((await api('GET', '/events?after=nope')).status).toBe(400);
  });

  it('on management lists: folders, pipelines, members, webhooks', async () => {
    expect((await sameAsFirstPage('/folders')).data.length).toBeGreaterThan(0);
    await sameAsFirstPage('/pipelines');
    await sameAsFirstPage('/members');
    await sameAsFirstPage('/webhooks');
  });

  it('a cursor that is not empty is still checked', async () => {
    const res = await api('GET', '/records?cursor=nope');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'cursor', message: 'is not a cursor returned by this API' },
    ]);
    const withPage = await api('GET', `/records?cursor=${'x'.repeat(10)}&page=1`);
    expect(withPage.status).toBe(400);
  });
});

describe('updatedSince with the offset’s + sent unencoded', () => {
  let id: string;
  let updatedAt: Date;

  beforeAll(async () => {
    const created = await ok('POST', '/records', 201, { folderId, title: 'Polled' });
    id = created.data.id;
    updatedAt = new Date(created.data.updatedAt);
  });

  /** `at` written in local time at +01:00, without milliseconds when it has none. */
  function plusOneHour(at: Date): string {
    return `${new Date(at.getTime() + 3_600_000).toISOString().replace('Z', '')}+01:00`;
  }

  const listed = async (query: string) =>
    ((await ok('GET', `/records?folderId=${folderId}&${query}`, 200)).data as { id: string }[]).map(
      (r) => r.id,
    );

  it('reads a raw + (a space once decoded) as +hh:mm', async () => {
    const at = plusOneHour(updatedAt); // the record's own instant, written at +01:00
    expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+01:00$/);
    // Read as Z or as -01:00 it would lie one or two hours later, and leave the record out.
    expect(await listed(`updatedSince=${at}`)).toContain(id);
    expect(await listed(`updatedSince=${plusOneHour(new Date(updatedAt.getTime() + 1000))}`)).not.toContain(
      id,
    );
  });

  it('reads %2B the same way', async () => {
    const at = plusOneHour(updatedAt).replace('+', '%2B');
    expect(await listed(`updatedSince=${at}`)).toContain(id);
    const later = plusOneHour(new Date(updatedAt.getTime() + 1000)).replace('+', '%2B');
    expect(await listed(`updatedSince=${later}`)).not.toContain(id);
  });

  it('takes the usual forms and still refuses other spaces', async () => {
    expect(await listed('updatedSince=2000-01-01T00:00:00Z')).toContain(id);
    expect(await listed('updatedSince=2000-01-01T00:00:00-05:00')).toContain(id);
    for (const bad of [
      '2026-11-22%2010:00:00+01:00', // a space for the T
      '2026-11-22T10:00:00++01:00',
      '2026-11-22T10:00:00%20%2B01:00',
      '2026-11-22T10:00:00', // no offset
      '2026-11-22T10:00:00+1:00',
      'yesterday',
    ]) {
      const res = await api('GET', `/records?updatedSince=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.details?.[0]?.path, bad).toBe('updatedSince');
    }
  });
});
