import { openHeaderValues, openSecret } from '@crm/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
});
beforeEach(async () => {
  ws = await app.createWorkspace();
});
afterAll(() => app?.stop());

const HOOK = 'http://127.0.0.1:1/hook';
const api = (method: string, path: string, body?: unknown, key = ws.apiKey) =>
  app.api(key, method, `/api/v1${path}`, body);

async function rows<T = Record<string, unknown>>(query: ReturnType<typeof sql>) {
  return (await app.service.db.execute(query)).rows as T[];
}
const webhookRow = async (id: string) =>
  (await rows<Record<string, unknown>>(sql`select * from webhooks where id = ${id}`))[0]!;
const countWebhooks = async () =>
  (
    await rows<{ n: number }>(
      sql`select count(*)::int as n from webhooks where workspace_id = ${ws.workspaceId}`,
    )
  )[0]!.n;
const deliveriesOf = (webhookId: string) =>
  rows<{ id: string; event_id: string; redelivery_of: string | null }>(
    sql`select id, event_id, redelivery_of from deliveries where webhook_id = ${webhookId} order by created_at, id`,
  );
const create = async (body: Record<string, unknown> = {}) => {
  const res = await api('POST', '/webhooks', { url: HOOK, events: ['*'], ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
};

describe('webhook subscriptions', () => {
  it('shows the secret on create only, never in get or list, and masks custom header values', async () => {
    const token = 'Bearer super-secret-token';
    const created = await create({ headers: { Authorization: token }, description: 'Zap' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created).toMatchObject({
      url: HOOK,
      events: ['*'],
      fields: [],
      headers: { Authorization: 'Bear…' },
      description: 'Zap',
      enabled: true,
      disabledReason: null,
      lastSuccessAt: null,
    });
    // Stored sealed (docs/operations.md, "Secrets at rest").
    expect((await webhookRow(created.id)).secret).toMatch(/^enc:v1:/);
    expect(openSecret((await webhookRow(created.id)).secret as string)).toBe(created.secret);
    for (const res of [await api('GET', `/webhooks/${created.id}`), await api('GET', '/webhooks')]) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(created.secret);
      expect(res.text).not.toContain('secret');
      expect(res.text).not.toContain(token);
    }
    expect((await api('GET', `/webhooks/${created.id}`)).body.data).toEqual(
      Object.fromEntries(Object.entries(created).filter(([key]) => key !== 'secret')),
    );
  });

  it('refuses private and non-http destinations but accepts the allowed loopback', async () => {
    for (const url of ['http://10.0.0.1/', 'ftp://example.com/', 'http://user:pw@127.0.0.1:1/']) {
      const res = await api('POST', '/webhooks', { url, events: ['*'] });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain('url');
    }
    expect(await countWebhooks()).toBe(0);
    await create({ url: HOOK });
    expect(await countWebhooks()).toBe(1);
  });

  it('refuses bad events, fields, headers and flags, naming the field, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ events: [] }, 'events'],
      [{ events: ['record.exploded'] }, 'events.0'],
      [{ events: ['deal.created'], fields: ['title'] }, 'fields'],
      [{ fields: ['nickname'] }, 'fields.0'],
      [{ fields: ['data.1bad'] }, 'fields.0'],
      [{ headers: { 'Content-Type': 'text/plain' } }, 'headers.Content-Type'],
      [{ headers: { 'X-Service-Signature': 'x' } }, 'headers.X-Service-Signature'],
      [{ headers: { 'webhook-id': 'x' } }, 'headers.webhook-id'],
      [{ headers: { 'Bad Name': 'x' } }, 'headers.Bad Name'],
      [{ headers: { 'X-A': 'x\r\nX-Injected: 1' } }, 'headers.X-A'],
      [{ headers: { 'X-A': 'x'.repeat(1001) } }, 'headers.X-A'],
      [{ headers: { 'X-A': '1', 'x-a': '2' } }, 'headers.x-a'],
      [{ headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) }, 'headers'],
      [{ description: 'd'.repeat(501) }, 'description'],
      [{ enabled: 'false' }, 'enabled'],
      [{ secret: 'whsec_mine' }, 'secret'],
    ];
    for (const [body, path] of cases) {
      const res = await api('POST', '/webhooks', { url: HOOK, events: ['*'], ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.error.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(await countWebhooks()).toBe(0);
  });

  it('deduplicates event kinds and fields, and keeps * alone', async () => {
    const a = await create({
      events: ['record.updated', 'record.updated'],
      fields: ['title', 'title', 'data.x'],
    });
    expect(a).toMatchObject({ events: ['record.updated'], fields: ['title', 'data.x'] });
    expect((await create({ events: ['deal.created', '*'] })).events).toEqual(['*']);
  });

  it('refuses the 51st subscription of a workspace', async () => {
    await app.service.db.execute(sql`
      insert into webhooks (workspace_id, id, url, events, secret)
      select ${ws.workspaceId}, 'wh_seed' || n, ${HOOK}, '{*}', 'whsec_x' from generate_series(1, 50) n`);
    const res = await api('POST', '/webhooks', { url: HOOK, events: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/at most 50/);
    expect(await countWebhooks()).toBe(50);
  });

  it('updates fields, replaces headers, keeps a header sent back masked, and re-checks the URL', async () => {
    const hook = await create({ headers: { 'X-Token': 'token-1234567890', 'X-Old': 'gone-soon-value' } });
    const patched = await api('PATCH', `/webhooks/${hook.id}`, {
      events: ['record.updated'],
      fields: ['phone'],
      headers: { 'X-Token': hook.headers['X-Token'], 'X-New': 'n' },
      description: 'Phones only',
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({
      events: ['record.updated'],
      fields: ['phone'],
      description: 'Phones only',
    });
    expect(openHeaderValues((await webhookRow(hook.id)).headers as Record<string, string>)).toEqual({
      'X-Token': 'token-1234567890',
      'X-New': 'n',
    });
    const unknownMask = await api('PATCH', `/webhooks/${hook.id}`, { headers: { 'X-Other': 'toke…' } });
    expect(unknownMask.body.error.details[0].path).toBe('headers.X-Other');
    const narrowed = await api('PATCH', `/webhooks/${hook.id}`, { events: ['deal.created'] });
    expect(narrowed.status).toBe(400);
    expect(narrowed.body.error.details[0].path).toBe('fields');
    const privateUrl = await api('PATCH', `/webhooks/${hook.id}`, { url: 'http://10.0.0.1/' });
    expect(privateUrl.status).toBe(400);
    expect((await webhookRow(hook.id)).url).toBe(HOOK);
  });

  it('re-enabling a subscription the service disabled clears disabledReason and the failure clock', async () => {
    const hook = await create();
    await app.service.db.execute(sql`
      update webhooks set enabled = false, disabled_reason = 'The receiver answered 410 Gone',
        failing_since = now() - interval '6 days' where id = ${hook.id}`);
    const disabled = (await api('GET', `/webhooks/${hook.id}`)).body.data;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'The receiver answered 410 Gone' });
    const enabled = await api('PATCH', `/webhooks/${hook.id}`, { enabled: true });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
    expect(await webhookRow(hook.id)).toMatchObject({ disabled_reason: null, failing_since: null });
    const byUser = await api('PATCH', `/webhooks/${hook.id}`, { enabled: false });
    expect(byUser.body.data).toMatchObject({ enabled: false, disabledReason: null });
  });

  it('rotation returns a new secret and keeps the previous one signing for 24 hours', async () => {
    const hook = await create();
    const rotated = await api('POST', `/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(hook.secret);
    const row = await rows<{ secret: string; previous_secret: string; hours: number }>(sql`
      select secret, previous_secret,
        extract(epoch from previous_secret_expires_at - now()) / 3600 as hours
      from webhooks where id = ${hook.id}`);
    expect(openSecret(row[0]!.secret)).toBe(rotated.body.data.secret);
    expect(openSecret(row[0]!.previous_secret)).toBe(hook.secret);
    expect(Number(row[0]!.hours)).toBeGreaterThan(23.9);
    expect(Number(row[0]!.hours)).toBeLessThanOrEqual(24);
  });

  it('deleting a subscription removes its deliveries; it is then a 404', async () => {
    const hook = await create();
    await api('POST', `/webhooks/${hook.id}/test`);
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    const deleted = await api('DELETE', `/webhooks/${hook.id}`);
    expect(deleted.body).toEqual({ data: { id: hook.id, deleted: true } });
    expect(await deliveriesOf(hook.id)).toHaveLength(0);
    expect((await api('GET', `/webhooks/${hook.id}`)).status).toBe(404);
    expect((await api('DELETE', `/webhooks/${hook.id}`)).status).toBe(404);
  });

  it('lists subscriptions newest first with paging', async () => {
    const first = await create();
    const second = await create();
    const page = await api('GET', '/webhooks?pageSize=1');
    expect(page.body.data.map((w: { id: string }) => w.id)).toEqual([second.id]);
    const next = await api('GET', `/webhooks?pageSize=1&cursor=${page.body.meta.nextCursor}`);
    expect(next.body.data.map((w: { id: string }) => w.id)).toEqual([first.id]);
    expect(next.body.meta.hasMore).toBe(false);
  });
});
