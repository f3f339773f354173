import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  other = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
});
afterAll(() => app?.stop());

async function query<Row = Record<string, unknown>>(text: string, params: unknown[] = []) {
  return (await app.service.db.$client.query(text, params)).rows as Row[];
}

const count = async (text: string, params: unknown[]) =>
  (await query<{ n: number }>(`select count(*)::int as n from ${text}`, params))[0]!.n;

const eventsOf = (workspaceId: string, type: string) =>
  query<{ payload: Record<string, unknown> }>(
    'select payload from events where workspace_id = $1 and type = $2 order by occurred_at, id',
    [workspaceId, type],
  );

const batch = (
  method: string,
  path: string,
  body: unknown,
  headers?: Record<string, string>,
  key = ws.apiKey,
) => app.api(key, method, `/api/v1${path}`, body, headers);

describe('POST /records/batch', () => {
  it('writes the valid items of 100 with their events, deliveries and workflow starts, and answers each invalid one as the single call would', async () => {
    const hook = await batch('POST', '/webhooks', {
      url: 'http://127.0.0.1:1/hook',
      events: ['record.created'],
    });
    expect(hook.status, hook.text).toBe(201);
    const workflow = await batch('POST', '/workflows', {
      name: 'Welcome',
      trigger: { type: 'record.created' },
      actions: [{ type: 'ADD_COMMENT', text: 'Welcome {{ record.title }}' }],
    });
    expect(workflow.status, workflow.text).toBe(201);
    const invalid: Record<number, Record<string, unknown>> = {
      10: { folderId: ws.folderId },
      50: { folderId: ws.folderId, title: 'Bad value', data: { lifecycle: 'Nope' } },
      51: { folderId: ws.folderId, title: 'Unknown key', colour: 'red' },
      77: { folderId: other.folderId, title: 'Foreign folder' },
    };
    const items = Array.from(
      { length: 100 },
      (_, i) =>
        invalid[i] ?? {
          folderId: ws.folderId,
          title: `Batch ${i}`,
          email: `batch${i}@example.com`,
          data: { company: `Company ${i}`, lifecycle: 'Lead' },
        },
    );
    const res = await batch('POST', '/records/batch', { items });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toEqual({ succeeded: 96, failed: 4 });
    expect(res.body.data.map((d: { index: number }) => d.index)).toEqual(items.map((_, i) => i));
    for (const [i, entry] of (res.body.data as { status: number; data?: { title: string } }[]).entries()) {
      if (invalid[i]) continue;
      expect(entry.status).toBe(201);
      expect(entry.data?.title).toBe(`Batch ${i}`);
    }
    // Each failure is the single call's error, with the batch request's id.
    const requestId = res.headers.get('x-request-id');
    for (const i of Object.keys(invalid).map(Number)) {
      const single = await batch('POST', '/records', invalid[i]);
      expect(single.status).toBe(400);
      const { requestId: _single, ...expected } = single.body.error;
      expect(res.body.data[i]).toEqual({ index: i, status: 400, error: { ...expected, requestId } });
    }
    expect(res.body.data[10].error.details).toEqual([{ path: 'title', message: 'is required' }]);
    expect(res.body.data[50].error.details).toEqual([
      { path: 'data.lifecycle', message: expect.any(String) },
    ]);
    expect(res.body.data[77].error.details).toEqual([{ path: 'folderId', message: expect.any(String) }]);

    const titles = await query<{ title: string }>(
      "select title from records where workspace_id = $1 and title like 'Batch %'",
      [ws.workspaceId],
    );
    expect(titles).toHaveLength(96);
    expect(await count('records where workspace_id = $1', [other.workspaceId])).toBe(0);
    const events = await eventsOf(ws.workspaceId, 'record.created');
    expect(events).toHaveLength(96);
    const created = (res.body.data as { data?: { id: string } }[]).flatMap((d) => (d.data ? [d.data] : []));
    expect(events.map((e) => e.payload.recordId)).toEqual(created.map((r) => r.id));
    for (const [i, event] of events.entries()) {
      const record = created[i] as Record<string, unknown>;
      expect(event.payload).toEqual({
        id: expect.stringMatching(/^evt_/),
        event: 'record.created',
        workspaceId: ws.workspaceId,
        occurredAt: expect.stringMatching(/Z$/),
        recordId: record.id,
        folderId: ws.folderId,
        // The record exactly as the batch answered it (the shape of GET /records/{id}).
        record,
        // Who made the change: the key, through REST, in this request (docs/api.md, "History and provenance").
        actor: { type: 'apiKey', id: expect.stringMatching(/^key_/), name: expect.any(String) },
        source: 'rest',
        requestId: res.headers.get('x-request-id'),
      });
    }
    expect(await count('deliveries where webhook_id = $1', [hook.body.data.id])).toBe(96);
    const starts = await count(
      `graphile_worker._private_jobs j
         join graphile_worker._private_tasks k on k.id = j.task_id
         join events e on e.id = j.payload->>'eventId'
        where k.identifier = 'start_event_workflows' and e.workspace_id = $1`,
      [ws.workspaceId],
    );
    expect(starts).toBe(96);
  });

  it('writes the same event as the single create', async () => {
    const body = { folderId: ws.folderId, title: 'Twin', phone: '+1 555 0100', data: { company: 'Twins' } };
    const single = await batch('POST', '/records', body);
    const many = await batch('POST', '/records/batch', { items: [body] });
    const payloads = await query<{ payload: Record<string, unknown> }>(
      'select payload from events where payload->>$1 = any($2) order by id',
      ['recordId', [single.body.data.id, many.body.data[0].data.id]],
    );
    const [a, b] = payloads.map(({ payload }) => ({
      ...payload,
      id: 'evt',
      occurredAt: 'at',
      recordId: 'rec',
      requestId: 'req',
      record: { ...(payload.record as object), id: 'rec', createdAt: 'at', updatedAt: 'at' },
    }));
    expect(b).toEqual(a);
  });

  it('upserts by email in item order: a repeated email updates the record the first item created', async () => {
    const existing = await batch('POST', '/records', {
      folderId: ws.folderId,
      title: 'Existing',
      email: 'existing@upsert.test',
    });
    const items = [
      { folderId: ws.folderId, title: 'First', email: 'twice@upsert.test' },
      { folderId: ws.folderId, title: 'Other', email: 'once@upsert.test' },
      { folderId: ws.folderId, title: 'Second', email: 'TWICE@upsert.test', data: { lifecycle: 'Lead' } },
      { folderId: ws.folderId, title: 'No email' },
      { folderId: ws.folderId, title: 'Existing, renamed', email: 'existing@upsert.test' },
    ];
    const res = await app.api(ws.apiKey, 'POST', '/api/v1/records/batch?upsert=email', { items });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((d: { status: number }) => d.status)).toEqual([201, 201, 200, 400, 200]);
    expect(res.body.meta).toEqual({ succeeded: 4, failed: 1 });
    expect(res.body.data[2].data.id).toBe(res.body.data[0].data.id);
    expect(res.body.data[2].data).toMatchObject({ title: 'Second', email: 'TWICE@upsert.test' });
    expect(res.body.data[3].error.details).toEqual([{ path: 'email', message: expect.any(String) }]);
    expect(res.body.data[4].data.id).toBe(existing.body.data.id);
    const twice = await query<{ id: string; title: string }>(
      "select id, title from records where workspace_id = $1 and lower(email) = 'twice@upsert.test'",
      [ws.workspaceId],
    );
    expect(twice).toEqual([{ id: res.body.data[0].data.id, title: 'Second' }]);
    const updated = await eventsOf(ws.workspaceId, 'record.updated');
    const ofTwice = updated.filter((e) => e.payload.recordId === twice[0]!.id);
    expect(ofTwice.map((e) => e.payload.changedFields)).toEqual([['title', 'email', 'data.lifecycle']]);
  });

  it('upserts a batch of new emails as plain creations, matching only live records of the same folder', async () => {
    const folder = await batch('POST', '/folders', {
      name: 'Upsert import',
      fields: [{ key: 'score', label: 'Score', type: 'NUMBER' }],
    });
    const folderId = folder.body.data.id;
    // The same email live in another folder, and in Trash in this one: neither is matched.
    await batch('POST', '/records', { folderId: ws.folderId, title: 'Elsewhere', email: 'new5@import.test' });
    const trashed = await batch('POST', '/records', {
      folderId,
      title: 'Trashed',
      email: 'new7@import.test',
    });
    await batch('DELETE', `/records/${trashed.body.data.id}`, undefined);
    const createdBefore = (await eventsOf(ws.workspaceId, 'record.created')).length;
    const items: Record<string, unknown>[] = Array.from({ length: 100 }, (_, i) => ({
      folderId,
      title: `New ${i}`,
      email: `New${i}@Import.test`,
      data: { score: String(i) },
    }));
    items[40] = { ...items[40], data: { score: 'forty' } };
    items[60] = { ...items[60], folderId: other.folderId };
    const res = await batch('POST', '/records/batch?upsert=email', { items });
    expect(res.status, res.text).toBe(200);
    const statuses = res.body.data.map((d: { status: number }) => d.status);
    expect(statuses.filter((s: number) => s === 201)).toHaveLength(98);
    expect([statuses[40], statuses[60]]).toEqual([400, 400]);
    expect(res.body.data[40].error.details).toEqual([{ path: 'data.score', message: 'must be a number' }]);
    expect(res.body.data[60].error.details[0].path).toBe('folderId');
    expect(res.body.data[5].data).toMatchObject({ folderId, email: 'New5@Import.test', data: { score: 5 } });
    expect(res.body.data[7].data.id).not.toBe(trashed.body.data.id);
    const created = await eventsOf(ws.workspaceId, 'record.created');
    expect(created.length - createdBefore).toBe(98);
    // Sent again, every one of them is found and updated (200), none created twice.
    const again = await batch('POST', '/records/batch?upsert=email', {
      items: items
        .filter((_, i) => i !== 40 && i !== 60)
        .map((item) => ({ ...item, title: `${item.title}!` })),
    });
    expect(again.body.data.every((d: { status: number }) => d.status === 200)).toBe(true);
    expect(await count('records where folder_id = $1 and trashed_at is null', [folderId])).toBe(98);
  });

  it('runs two batches over the same emails or records in opposite orders one after the other, without deadlocking', async () => {
    const emails = Array.from({ length: 20 }, (_, i) => `race${i}@upsert.test`);
    const items = (list: string[]) => list.map((email) => ({ folderId: ws.folderId, title: email, email }));
    const upsert = (list: string[]) =>
      app.api(ws.apiKey, 'POST', '/api/v1/records/batch?upsert=email', { items: items(list) });
    const [a, b] = await Promise.all([upsert(emails), upsert([...emails].reverse())]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.meta.failed, b.body.meta.failed]).toEqual([0, 0]);
    const stored = await count("records where workspace_id = $1 and email like 'race%@upsert.test'", [
      ws.workspaceId,
    ]);
    expect(stored).toBe(20);
    const ids = (a.body.data as { data: { id: string } }[]).map((d) => d.data.id);
    const patch = (list: string[]) =>
      batch('PATCH', '/records/batch', { items: list.map((id) => ({ id, phone: `+1 ${list[0]}` })) });
    const [c, d] = await Promise.all([patch(ids), patch([...ids].reverse())]);
    expect([c.status, d.status, c.body.meta.failed, d.body.meta.failed]).toEqual([200, 200, 0, 0]);
  });

  it('refuses 101 items with a 400 naming the limit, and an empty list', async () => {
    const items = Array.from({ length: 101 }, (_, i) => ({ folderId: ws.folderId, title: `Over ${i}` }));
    const before = await count('records where workspace_id = $1', [ws.workspaceId]);
    const res = await batch('POST', '/records/batch', { items });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([{ path: 'items', message: 'must hold at most 100 items' }]);
    expect(res.body.error.message).toMatch(/at most 100 items/);
    const ids = Array.from({ length: 101 }, () => 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5');
    const trash = await batch('POST', '/records/batch/trash', { ids });
    expect(trash.body.error.details).toEqual([{ path: 'ids', message: 'must hold at most 100 items' }]);
    const empty = await batch('PATCH', '/records/batch', { items: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([{ path: 'items', message: 'must hold at least 1 item' }]);
    expect(await count('records where workspace_id = $1', [ws.workspaceId])).toBe(before);
  });

  it('replays a batch sent again with its Idempotency-Key, doing nothing again', async () => {
    const items = [
      { folderId: ws.folderId, title: 'Keyed 1' },
      { folderId: ws.folderId, title: '' },
      { folderId: ws.folderId, title: 'Keyed 2' },
    ];
    const headers = { 'Idempotency-Key': 'batch-replay-1' };
    const first = await batch('POST', '/records/batch', { items }, headers);
    expect(first.status, first.text).toBe(200);
    expect(first.body.meta).toEqual({ succeeded: 2, failed: 1 });
    const state = async () => ({
      records: await count("records where workspace_id = $1 and title like 'Keyed%'", [ws.workspaceId]),
      events: await count('events where workspace_id = $1', [ws.workspaceId]),
    });
    const after = await state();
    expect(after.records).toBe(2);
    const again = await batch('POST', '/records/batch', { items }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await state()).toEqual(after);

    const patch = {
      items: first.body.data.flatMap((d: { data?: { id: string } }) =>
        d.data ? [{ id: d.data.id, title: 'Keyed, renamed' }] : [],
      ),
    };
    const patchHeaders = { 'Idempotency-Key': 'batch-replay-2' };
    const patched = await batch('PATCH', '/records/batch', patch, patchHeaders);
    expect(patched.body.meta).toEqual({ succeeded: 2, failed: 0 });
    const afterPatch = await state();
    const patchedAgain = await batch('PATCH', '/records/batch', patch, patchHeaders);
    expect(patchedAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(patchedAgain.body).toEqual(patched.body);
    expect(await state()).toEqual(afterPatch);
  });

  it('counts a batch as one request against the rate limit', async () => {
    const limited = await app.createWorkspace({ rateLimitPerMinute: 50 });
    const items = Array.from({ length: 100 }, (_, i) => ({
      folderId: limited.folderId,
      title: `Limited ${i}`,
    }));
    const first = await batch('POST', '/records/batch', { items }, {}, limited.apiKey);
    expect(first.status).toBe(200);
    const second = await batch('POST', '/records/batch', { items }, {}, limited.apiKey);
    expect(second.status).toBe(200);
    const remaining = (r: { headers: Headers }) => Number(r.headers.get('ratelimit-remaining'));
    expect(remaining(first) - remaining(second)).toBe(1);
    expect(remaining(second)).toBeGreaterThanOrEqual(45);
  });
});

describe('PATCH /records/batch and POST /records/batch/trash', () => {
  it('answers 404 for an id of another workspace and changes nothing there', async () => {
    const create = async (key: string, folderId: string, title: string) =>
      (await app.api(key, 'POST', '/api/v1/records', { folderId, title })).body.data;
    const foreign = await create(other.apiKey, other.folderId, 'Foreign');
    const mine1 = await create(ws.apiKey, ws.folderId, 'Mine 1');
    const mine2 = await create(ws.apiKey, ws.folderId, 'Mine 2');
    const foreignEvents = await count('events where workspace_id = $1', [other.workspaceId]);
    const res = await batch('PATCH', '/records/batch', {
      items: [
        { id: mine1.id, title: 'Mine 1, renamed', data: { lifecycle: 'Customer' } },
        { id: foreign.id, title: 'Taken over' },
        { id: 'batch', title: 'Not an id' },
        { id: mine2.id, data: { lifecycle: 'Nope' } },
        { id: mine2.id, phone: '+44 20 7946 0000' },
        { title: 'No id' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((d: { status: number }) => d.status)).toEqual([200, 404, 404, 400, 200, 400]);
    expect(res.body.data[0].data).toMatchObject({
      title: 'Mine 1, renamed',
      data: { lifecycle: 'Customer' },
    });
    expect(res.body.data[1].error).toMatchObject({
      code: 'NOT_FOUND',
      message: `Record ${foreign.id} not found`,
    });
    expect(res.body.data[3].error.details).toEqual([{ path: 'data.lifecycle', message: expect.any(String) }]);
    expect(res.body.data[5].error.details).toEqual([{ path: 'id', message: 'is required' }]);
    const theirs = await app.api(other.apiKey, 'GET', `/api/v1/records/${foreign.id}`);
    expect(theirs.body.data).toEqual(foreign);
    const updates = await eventsOf(ws.workspaceId, 'record.updated');
    expect(
      updates.filter((e) => e.payload.recordId === mine2.id).map((e) => e.payload.changedFields),
    ).toEqual([['phone']]);

    const trashed = await batch('POST', '/records/batch/trash', {
      ids: [mine1.id, foreign.id, mine1.id, 42],
    });
    expect(trashed.status, trashed.text).toBe(200);
    expect(trashed.body.data.map((d: { status: number }) => d.status)).toEqual([200, 404, 404, 400]);
    expect(trashed.body.data[0].data).toMatchObject({ id: mine1.id, trashedAt: expect.any(String) });
    expect(trashed.body.meta).toEqual({ succeeded: 1, failed: 3 });
    expect((await app.api(other.apiKey, 'GET', `/api/v1/records/${foreign.id}`)).status).toBe(200);
    expect(await count('events where workspace_id = $1', [other.workspaceId])).toBe(foreignEvents);
    const trashEvents = (await eventsOf(ws.workspaceId, 'record.trashed')).map((e) => e.payload.recordId);
    expect(trashEvents.filter((id) => id === mine1.id || id === foreign.id)).toEqual([mine1.id]);
  });

  it('is routed before /records/{id}: PATCH reaches the batch, another method is a 405', async () => {
    const patch = await batch('PATCH', '/records/batch', { title: 'Not a batch' });
    expect(patch.status).toBe(400);
    expect(patch.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['items', 'title']);
    const get = await batch('GET', '/records/batch', undefined);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, PATCH, OPTIONS');
    expect((await batch('DELETE', '/records/batch/trash', undefined)).status).toBe(405);
  });
});

describe('the record batches over tRPC', () => {
  const client = () =>
    createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) }),
      ],
    });

  it('answers like REST, from the same procedures', async () => {
    const trpc = client();
    const created = await trpc.records.batchCreate.mutate({
      items: [
        { folderId: ws.folderId, title: 'Over tRPC', data: { company: 'RPC' } },
        { folderId: ws.folderId, title: 'Bad', data: { nope: 1 } },
      ],
    });
    expect(created.meta).toEqual({ succeeded: 1, failed: 1 });
    const [ok, failed] = created.data;
    expect(ok).toMatchObject({ index: 0, status: 201, data: { title: 'Over tRPC' } });
    expect(failed).toMatchObject({
      index: 1,
      status: 400,
      error: {
        code: 'VALIDATION_FAILED',
        details: [{ path: 'data.nope', message: 'is not a field of this folder' }],
      },
    });
    const id = (ok as { data: { id: string } }).data.id;
    const rest = await app.api(ws.apiKey, 'GET', `/api/v1/records/${id}`);
    expect(rest.body.data).toEqual((ok as { data: unknown }).data);
    const updated = await trpc.records.batchUpdate.mutate({ items: [{ id, title: 'Renamed over tRPC' }] });
    expect(updated.data[0]).toMatchObject({ status: 200, data: { id, title: 'Renamed over tRPC' } });
    const trashed = await trpc.records.batchTrash.mutate({ ids: [id, 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5'] });
    expect(trashed.data.map((d) => d.status)).toEqual([200, 404]);
  });
});
