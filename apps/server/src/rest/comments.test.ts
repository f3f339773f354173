import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let ownerName: string;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
  const users = await app.service.db.execute<{ name: string }>(
    sql`select name from users where id = ${ws.userId}`,
  );
  ownerName = users.rows[0]!.name;
});
afterAll(() => app?.stop());

const INSTANT_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_RECORD = 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5';

async function newRecord(owner: TestWorkspace = ws, title = 'Ada') {
  const res = await app.api(owner.apiKey, 'POST', '/api/v1/records', { folderId: owner.folderId, title });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string };
}

const comment = (recordId: string, body: unknown, key = ws.apiKey) =>
  app.api(key, 'POST', `/api/v1/records/${recordId}/comments`, body);

async function commentCount(workspaceId = ws.workspaceId): Promise<number> {
  const result = await app.service.db.execute<{ n: number }>(
    sql`select count(*)::int as n from comments where workspace_id = ${workspaceId}`,
  );
  return result.rows[0]!.n;
}

describe('comments over REST', () => {
  it("creates with 201, trimmed text and the key's user as author, and lists it", async () => {
    const record = await newRecord();
    const res = await comment(record.id, { text: '  Called, left a message.\n' });
    expect(res.status, res.text).toBe(201);
    const created = res.body.data;
    expect(created).toEqual({
      id: expect.stringMatching(/^note_[0-9a-z]{26}$/),
      recordId: record.id,
      text: 'Called, left a message.',
      author: ownerName,
      authorId: ws.userId,
      createdAt: expect.stringMatching(INSTANT_MS),
      updatedAt: expect.stringMatching(INSTANT_MS),
    });
    const list = await app.api(ws.apiKey, 'GET', `/api/v1/records/${record.id}/comments`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      data: [created],
      meta: { page: 1, pageSize: 50, hasMore: false, nextCursor: null, nextUrl: null },
    });
  });

  it('lists oldest first and pages with page and with cursor', async () => {
    const record = await newRecord();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await comment(record.id, { text: `Note ${i}` })).body.data.id);
    const path = `/api/v1/records/${record.id}/comments`;
    const all = await app.api(ws.apiKey, 'GET', path);
    expect(all.body.data.map((c: { id: string }) => c.id)).toEqual(ids);
    const page2 = await app.api(ws.apiKey, 'GET', `${path}?page=2&pageSize=2`);
    expect(page2.body.data.map((c: { text: string }) => c.text)).toEqual(['Note 2', 'Note 3']);
    expect(page2.body.meta).toMatchObject({ page: 2, pageSize: 2, hasMore: true });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await app.api(ws.apiKey, 'GET', `${path}?pageSize=2${query}`);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.meta.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await app.api(ws.apiKey, 'GET', `${path}?page=1&cursor=abc`)).status).toBe(400);
    expect((await app.api(ws.apiKey, 'GET', `${path}?pageSize=201`)).status).toBe(400);
  });

  it('accepts 10,000 characters and refuses bad text with a 400 naming the field, writing nothing', async () => {
    const record = await newRecord();
    expect((await comment(record.id, { text: 'x'.repeat(10_000) })).status).toBe(201);
    const before = await commentCount();
    const cases: [unknown, string][] = [
      [{}, 'text'],
      [{ text: '' }, 'text'],
      [{ text: ' \n\t ' }, 'text'],
      [{ text: 'x'.repeat(10_001) }, 'text'],
      [{ text: 42 }, 'text'],
      [{ text: null }, 'text'],
      [{ text: 'ok', author: 'Someone else' }, 'author'],
      [{ text: 'ok', id: MISSING_RECORD }, 'id'],
    ];
    for (const [body, path] of cases) {
      const res = await comment(record.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await commentCount()).toBe(before);
  });

  it('answers 404 on both endpoints for a trashed, unknown or malformed record id and writes nothing', async () => {
    const trashed = await newRecord(ws, 'Trashed');
    expect((await comment(trashed.id, { text: 'before' })).status).toBe(201);
    expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/records/${trashed.id}`)).status).toBe(200);
    const before = await commentCount();
    for (const id of [trashed.id, MISSING_RECORD, 'nope', 'fld_01jq3v6f6ve7s9t8m1k2c3d4e5']) {
      const list = await app.api(ws.apiKey, 'GET', `/api/v1/records/${id}/comments`);
      expect(list.status, id).toBe(404);
      expect(list.body.error.code).toBe('NOT_FOUND');
      expect((await comment(id, { text: 'hello' })).status, id).toBe(404);
    }
    expect(await commentCount()).toBe(before);
    await app.api(ws.apiKey, 'POST', `/api/v1/records/${trashed.id}/restore`);
    const restored = await app.api(ws.apiKey, 'GET', `/api/v1/records/${trashed.id}/comments`);
    expect(restored.body.data.map((c: { text: string }) => c.text)).toEqual(['before']);
  });

  it("gives another workspace 404 on this workspace's records and none of their comments", async () => {
    const other = await app.createWorkspace();
    const record = await newRecord();
    await comment(record.id, { text: 'Private' });
    const before = await commentCount();
    const list = await app.api(other.apiKey, 'GET', `/api/v1/records/${record.id}/comments`);
    expect(list.status).toBe(404);
    expect(list.text).not.toContain('Private');
    expect((await comment(record.id, { text: 'Intruder' }, other.apiKey)).status).toBe(404);
    expect(await commentCount()).toBe(before);
    expect(await commentCount(other.workspaceId)).toBe(0);
  });
});

describe('comments over tRPC', () => {
  const client = (key: string) =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${key}` }) })],
    });

  async function failure(promise: Promise<unknown>) {
    const error = await promise.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCClientError);
    return error as TRPCClientError<AppRouter>;
  }

  it('creates the same comment REST lists, with the same validation and not-found answers', async () => {
    const trpc = client(ws.apiKey);
    const record = await newRecord();
    const created = await trpc.comments.create.mutate({ id: record.id, text: ' Via tRPC ' });
    expect(created.data).toMatchObject({ text: 'Via tRPC', author: ownerName, authorId: ws.userId });
    const rest = await app.api(ws.apiKey, 'GET', `/api/v1/records/${record.id}/comments`);
    expect(rest.body.data).toEqual([created.data]);
    expect(await trpc.comments.list.query({ id: record.id })).toEqual(rest.body);

    const before = await commentCount();
    const empty = await failure(trpc.comments.create.mutate({ id: record.id, text: '   ' }));
    expect(empty.data?.httpStatus).toBe(400);
    await app.api(ws.apiKey, 'DELETE', `/api/v1/records/${record.id}`);
    const gone = await failure(trpc.comments.create.mutate({ id: record.id, text: 'late' }));
    expect(gone.data?.code).toBe('NOT_FOUND');
    expect(await commentCount()).toBe(before);
  });
});
