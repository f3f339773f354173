import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
});
afterAll(() => app?.stop());

const INSTANT_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_RECORD = 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5';

async function newRecord(owner: TestWorkspace = ws, fields: Record<string, unknown> = {}) {
  const res = await app.api(owner.apiKey, 'POST', '/api/v1/records', {
    folderId: owner.folderId,
    title: 'Ada',
    phone: '+44 20 7946 0000',
    ...fields,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; phone: string | null };
}

const logCall = (recordId: string, body: unknown, key = ws.apiKey) =>
  app.api(key, 'POST', `/api/v1/records/${recordId}/calls`, body);

async function callCount(workspaceId = ws.workspaceId): Promise<number> {
  const result = await app.service.db.execute<{ n: number }>(
    sql`select count(*)::int as n from call_logs where workspace_id = ${workspaceId}`,
  );
  return result.rows[0]!.n;
}

describe('call logs over REST', () => {
  it("fills the defaults: OUTBOUND, CONNECTED, calledAt now and the record's phone", async () => {
    const record = await newRecord();
    const before = Date.now();
    const res = await logCall(record.id, {});
    const after = Date.now();
    expect(res.status, res.text).toBe(201);
    const call = res.body.data;
    expect(call).toEqual({
      id: expect.stringMatching(/^call_[0-9a-z]{26}$/),
      recordId: record.id,
      direction: 'OUTBOUND',
      outcome: 'CONNECTED',
      duration: null,
      phone: '+44 20 7946 0000',
      notes: null,
      calledAt: expect.stringMatching(INSTANT_MS),
      authorId: ws.userId,
      createdAt: expect.stringMatching(INSTANT_MS),
      updatedAt: expect.stringMatching(INSTANT_MS),
    });
    // The database clock stamps calledAt; allow a second of skew against this process.
    expect(Date.parse(call.calledAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(call.calledAt)).toBeLessThanOrEqual(after + 1000);
  });

  it('stores given values, normalising calledAt to UTC with milliseconds', async () => {
    const record = await newRecord();
    const res = await logCall(record.id, {
      direction: 'INBOUND',
      outcome: 'VOICEMAIL',
      duration: 0,
      phone: ' +1 555 0100 ',
      notes: 'Will call back',
      calledAt: '2026-11-21T10:30:00+01:00',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      direction: 'INBOUND',
      outcome: 'VOICEMAIL',
      duration: 0,
      phone: '+1 555 0100',
      notes: 'Will call back',
      calledAt: '2026-11-21T09:30:00.000Z',
    });
    const noMillis = await logCall(record.id, { duration: 604_800, calledAt: '2026-11-21T09:30:00Z' });
    expect(noMillis.body.data).toMatchObject({ duration: 604_800, calledAt: '2026-11-21T09:30:00.000Z' });
  });

  it('stores no phone when given null or empty, and none when the record has none', async () => {
    const record = await newRecord();
    for (const phone of [null, '', '   ']) {
      const res = await logCall(record.id, { phone });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.phone).toBeNull();
    }
    const noPhone = await newRecord(ws, { phone: undefined });
    expect((await logCall(noPhone.id, {})).body.data.phone).toBeNull();
  });

  it('refuses bad values with a 400 naming the field and writes nothing', async () => {
    const record = await newRecord();
    const before = await callCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ duration: '12' }, 'duration'],
      [{ duration: -1 }, 'duration'],
      [{ duration: 1.5 }, 'duration'],
      [{ duration: 604_801 }, 'duration'],
      [{ direction: 'SIDEWAYS' }, 'direction'],
      [{ direction: null }, 'direction'],
      [{ outcome: 'connected' }, 'outcome'],
      [{ calledAt: 'yesterday' }, 'calledAt'],
      [{ calledAt: '2026-11-21' }, 'calledAt'],
      [{ phone: 'x'.repeat(65) }, 'phone'],
      [{ notes: 'x'.repeat(10_001) }, 'notes'],
      [{ durationSeconds: 12 }, 'durationSeconds'],
    ];
    for (const [body, path] of cases) {
      const res = await logCall(record.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await callCount()).toBe(before);
  });

  it('lists oldest first and pages with page and with cursor', async () => {
    const record = await newRecord();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await logCall(record.id, { duration: i })).body.data.id);
    const path = `/api/v1/records/${record.id}/calls`;
    const all = await app.api(ws.apiKey, 'GET', path);
    expect(all.body.data.map((c: { id: string }) => c.id)).toEqual(ids);
    expect(all.body.meta).toEqual({ page: 1, pageSize: 50, hasMore: false, nextCursor: null, nextUrl: null });
    const page2 = await app.api(ws.apiKey, 'GET', `${path}?page=2&pageSize=2`);
    expect(page2.body.data.map((c: { duration: number }) => c.duration)).toEqual([2, 3]);
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
  });

  it('answers 404 on both endpoints for a trashed, unknown or malformed record id and writes nothing', async () => {
    const trashed = await newRecord();
    expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/records/${trashed.id}`)).status).toBe(200);
    const before = await callCount();
    for (const id of [trashed.id, MISSING_RECORD, 'nope', 'call_01jq3v6f6ve7s9t8m1k2c3d4e5']) {
      const list = await app.api(ws.apiKey, 'GET', `/api/v1/records/${id}/calls`);
      expect(list.status, id).toBe(404);
      expect(list.body.error.code).toBe('NOT_FOUND');
      expect((await logCall(id, { duration: 5 })).status, id).toBe(404);
    }
    expect(await callCount()).toBe(before);
  });

  it("gives another workspace 404 on this workspace's records and none of their calls", async () => {
    const other = await app.createWorkspace();
    const record = await newRecord();
    await logCall(record.id, { notes: 'Private' });
    const before = await callCount();
    const list = await app.api(other.apiKey, 'GET', `/api/v1/records/${record.id}/calls`);
    expect(list.status).toBe(404);
    expect(list.text).not.toContain('Private');
    expect((await logCall(record.id, { notes: 'Intruder' }, other.apiKey)).status).toBe(404);
    expect(await callCount()).toBe(before);
    expect(await callCount(other.workspaceId)).toBe(0);
  });
});

describe('call logs over tRPC', () => {
  it('lists exactly what REST lists, and sees calls logged through either surface', async () => {
    const trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) }),
      ],
    });
    const record = await newRecord();
    const viaRest = (await logCall(record.id, { outcome: 'BUSY' })).body.data;
    const viaTrpc = await trpc.calls.create.mutate({ id: record.id, direction: 'INBOUND', duration: 42 });
    const list = await trpc.calls.list.query({ id: record.id, pageSize: 10 });
    expect(list.data).toEqual([viaRest, viaTrpc.data]);
    const rest = await app.api(ws.apiKey, 'GET', `/api/v1/records/${record.id}/calls?pageSize=10`);
    expect(list).toEqual(rest.body);
  });
});
