import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
});
afterAll(() => app?.stop());

async function recordsTitled(title: string) {
  const result = await app.service.db.execute<{ n: number }>(
    sql`select count(*)::int as n from records where workspace_id = ${ws.workspaceId} and title = ${title}`,
  );
  return result.rows[0]!.n;
}

const create = (key: string, body: Record<string, unknown>) =>
  app.api(
    ws.apiKey,
    'POST',
    '/api/v1/records',
    { folderId: ws.folderId, ...body },
    { 'Idempotency-Key': key },
  );

describe('Idempotency-Key', () => {
  it('replays the first response with Idempotent-Replayed and does nothing again', async () => {
    const first = await create('key-replay', { title: 'Once' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await create('key-replay', { title: 'Once' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await recordsTitled('Once')).toBe(1);
  });

  it('treats the same body with keys in another order as the same request', async () => {
    await app.api(
      ws.apiKey,
      'POST',
      '/api/v1/records',
      { title: 'Ordered', folderId: ws.folderId },
      { 'Idempotency-Key': 'k-order' },
    );
    const again = await create('k-order', { title: 'Ordered' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 422 when the key is reused with another body, and keeps keys per workspace', async () => {
    expect((await create('key-reused', { title: 'First body' })).status).toBe(201);
    const reused = await create('key-reused', { title: 'Second body' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await recordsTitled('Second body')).toBe(0);
    const other = await app.createWorkspace();
    const elsewhere = await app.api(
      other.apiKey,
      'POST',
      '/api/v1/records',
      { folderId: other.folderId, title: 'Second body' },
      {
        'Idempotency-Key': 'key-reused',
      },
    );
    expect(elsewhere.status).toBe(201);
  });

  it('makes 20 concurrent identical POSTs create one record; the others replay it or get 409', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => create('key-concurrent', { title: 'Concurrent' })),
    );
    const created = responses.filter(
      (r) => r.status === 201 && r.headers.get('idempotent-replayed') === null,
    );
    const replayed = responses.filter((r) => r.headers.get('idempotent-replayed') === 'true');
    const conflicts = responses.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(replayed.length + conflicts.length).toBe(19);
    for (const r of replayed) expect(r.body).toEqual(created[0]!.body);
    for (const r of conflicts) expect(r.body.error.code).toBe('CONFLICT');
    expect(await recordsTitled('Concurrent')).toBe(1);
  });

  it('replays a validation error too, and works on PATCH', async () => {
    const bad = await create('key-bad', { title: 'x', data: { lifecycle: 'Nope' } });
    expect(bad.status).toBe(400);
    const badAgain = await create('key-bad', { title: 'x', data: { lifecycle: 'Nope' } });
    expect(badAgain.status).toBe(400);
    expect(badAgain.headers.get('idempotent-replayed')).toBe('true');
    const record = (await create('key-for-patch-target', { title: 'Patch me' })).body.data;
    const patch = () =>
      app.api(
        ws.apiKey,
        'PATCH',
        `/api/v1/records/${record.id}`,
        { title: 'Patched' },
        { 'Idempotency-Key': 'p1' },
      );
    const first = await patch();
    const second = await patch();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const otherRecord = (await create('key-for-other-target', { title: 'Other target' })).body.data;
    const samePatchOtherRecord = await app.api(
      ws.apiKey,
      'PATCH',
      `/api/v1/records/${otherRecord.id}`,
      { title: 'Patched' },
      {
        'Idempotency-Key': 'p1',
      },
    );
    expect(samePatchOtherRecord.status).toBe(422);
  });

  it('keeps a replayed answer that shows a secret encrypted at rest', async () => {
    const first = await app.api(
      ws.apiKey,
      'POST',
      '/api/v1/webhooks',
      { url: 'http://127.0.0.1:9/hook', events: ['record.created'] },
      { 'Idempotency-Key': 'key-secret' },
    );
    expect(first.status).toBe(201);
    const secret = first.body.data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const stored = await app.service.db.execute<{ body: string }>(
      sql`select body from idempotency_keys where workspace_id = ${ws.workspaceId} and key = 'key-secret'`,
    );
    expect(stored.rows[0]!.body).toMatch(/^enc:v1:/);
    expect(stored.rows[0]!.body).not.toContain(secret);
    const again = await app.api(
      ws.apiKey,
      'POST',
      '/api/v1/webhooks',
      { url: 'http://127.0.0.1:9/hook', events: ['record.created'] },
      { 'Idempotency-Key': 'key-secret' },
    );
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('refuses a malformed key', async () => {
    const res = await create('bad key with spaces', { title: 'nope' });
    expect(res.status).toBe(400);
    expect(await recordsTitled('nope')).toBe(0);
  });
});
