import { openSecret } from '@crm/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Deliveries of webhook subscriptions over REST: test events, redelivery, the deliveries list
 * with attempts, and tenant isolation of every id (the subscriptions themselves are in
 * webhooks.test.ts). The worker is off, so nothing is sent; attempts are written with SQL.
 */
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
const deliveriesOf = (webhookId: string) =>
  rows<{ id: string; event_id: string; redelivery_of: string | null }>(
    sql`select id, event_id, redelivery_of from deliveries where webhook_id = ${webhookId} order by created_at, id`,
  );
const create = async (body: Record<string, unknown> = {}) => {
  const res = await api('POST', '/webhooks', { url: HOOK, events: ['*'], ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
};

describe('deliveries', () => {
  const insertAttempt = (deliveryId: string, attempt: number, status: number | null, error: string | null) =>
    app.service.db.execute(sql`
      insert into delivery_attempts (workspace_id, id, delivery_id, attempt, started_at, duration_ms,
        response_status, error, response_excerpt)
      values (${ws.workspaceId}, ${`att_${deliveryId}_${attempt}`}, ${deliveryId}, ${attempt},
        now() - make_interval(mins => ${10 - attempt}), ${100 * attempt}, ${status}, ${error},
        ${status ? 'ok' : null})`);

  it('a test event makes exactly one delivery, to that subscription only, and is never fanned out', async () => {
    const target = await create({ events: ['deal.created'] });
    const everything = await create({ events: ['*'] });
    const res = await api('POST', `/webhooks/${target.id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      id: expect.stringMatching(/^dlv_/),
      webhookId: target.id,
      event: 'webhook.test',
      status: 'PENDING',
      attemptCount: 0,
      redeliveryOf: null,
      attempts: [],
    });
    const { eventId } = res.body.data;
    expect(await deliveriesOf(target.id)).toEqual([
      { id: res.body.data.id, event_id: eventId, redelivery_of: null },
    ]);
    expect(await deliveriesOf(everything.id)).toEqual([]);
    const [event] = await rows<{ type: string; payload: Record<string, unknown> }>(
      sql`select type, payload from events where id = ${eventId}`,
    );
    expect(event).toMatchObject({
      type: 'webhook.test',
      payload: {
        id: eventId,
        event: 'webhook.test',
        workspaceId: ws.workspaceId,
        recordId: null,
        record: null,
        test: true,
      },
    });
    // Only this delivery is queued, due now; the test event makes no other delivery.
    const queued = await rows<{ id: string; status: string; due: boolean }>(
      sql`select id, status, next_attempt_at <= now() as due from deliveries where event_id = ${eventId}`,
    );
    expect(queued).toEqual([{ id: res.body.data.id, status: 'PENDING', due: true }]);
  });

  it('redelivery is a new delivery of the same event, even after success, and refused when disabled', async () => {
    const hook = await create();
    const original = (await api('POST', `/webhooks/${hook.id}/test`)).body.data;
    await app.service.db.execute(sql`update deliveries set status = 'SUCCEEDED' where id = ${original.id}`);
    const again = await api('POST', `/deliveries/${original.id}/redeliver`);
    expect(again.status, again.text).toBe(201);
    expect(again.body.data).toMatchObject({
      eventId: original.eventId,
      redeliveryOf: original.id,
      status: 'PENDING',
    });
    expect(again.body.data.id).not.toBe(original.id);
    expect(await deliveriesOf(hook.id)).toHaveLength(2);
    await api('PATCH', `/webhooks/${hook.id}`, { enabled: false });
    const refused = await api('POST', `/deliveries/${original.id}/redeliver`);
    expect(refused.status).toBe(400);
    expect((await api('POST', `/webhooks/${hook.id}/test`)).status).toBe(400);
    expect(await deliveriesOf(hook.id)).toHaveLength(2);
  });

  it('lists deliveries newest first, each with its attempts in order', async () => {
    const hook = await create();
    const older = (await api('POST', `/webhooks/${hook.id}/test`)).body.data;
    const newer = (await api('POST', `/webhooks/${hook.id}/test`)).body.data;
    await insertAttempt(older.id, 2, 200, null);
    await insertAttempt(older.id, 1, null, 'connect ECONNREFUSED');
    const res = await api('GET', `/webhooks/${hook.id}/deliveries`);
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([newer.id, older.id]);
    expect(res.body.data[0].attempts).toEqual([]);
    expect(res.body.data[1].attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        durationMs: 100,
        responseStatus: null,
        error: 'connect ECONNREFUSED',
        responseExcerpt: null,
      }),
      expect.objectContaining({
        attempt: 2,
        durationMs: 200,
        responseStatus: 200,
        error: null,
        responseExcerpt: 'ok',
      }),
    ]);
    expect(res.body.data[1].attempts[0].startedAt).toMatch(/\.\d{3}Z$/);
    const page = await api('GET', `/webhooks/${hook.id}/deliveries?pageSize=1`);
    expect(page.body.meta.hasMore).toBe(true);
    const next = await api(
      'GET',
      `/webhooks/${hook.id}/deliveries?pageSize=1&cursor=${page.body.meta.nextCursor}`,
    );
    expect(next.body.data.map((d: { id: string }) => d.id)).toEqual([older.id]);
  });

  it("answers 404 for another workspace's or a malformed subscription and delivery id", async () => {
    const hook = await create();
    const delivery = (await api('POST', `/webhooks/${hook.id}/test`)).body.data;
    const other = await app.createWorkspace();
    const calls: [string, string, unknown?][] = [
      ['GET', `/webhooks/${hook.id}`],
      ['PATCH', `/webhooks/${hook.id}`, { enabled: false }],
      ['DELETE', `/webhooks/${hook.id}`],
      ['POST', `/webhooks/${hook.id}/rotate-secret`],
      ['POST', `/webhooks/${hook.id}/test`],
      ['GET', `/webhooks/${hook.id}/deliveries`],
      ['POST', `/deliveries/${delivery.id}/redeliver`],
    ];
    for (const [method, path, body] of calls) {
      expect((await api(method, path, body, other.apiKey)).status, `${method} ${path}`).toBe(404);
      const malformed = path.replace(hook.id, 'wh_nope').replace(delivery.id, hook.id);
      expect((await api(method, malformed, body)).status, `${method} ${malformed}`).toBe(404);
    }
    expect((await api('GET', '/webhooks', undefined, other.apiKey)).body.data).toEqual([]);
    const row = await webhookRow(hook.id);
    expect(row).toMatchObject({ enabled: true });
    expect(openSecret(row.secret as string)).toBe(hook.secret);
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
  });
});
