import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { schema } from '@crm/db';
import { newId } from '@crm/domain';
import { sign as signGithubStyle, verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type ReceivedRequest, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
const receivers: Receiver[] = [];

beforeAll(async () => {
  app = await startTestApp({
    worker: true,
    // The retry schedule (docs/webhooks.md) shrunk 1000×: 5 ms, 300 ms, 1.8 s … between attempts.
    env: {
      WEBHOOK_RETRY_SCALE: '0.001',
      WEBHOOK_TIMEOUT_MS: '400',
      WEBHOOK_CONNECT_TIMEOUT_MS: '300',
      WORKER_POLL_INTERVAL_MS: '50',
    },
  });
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await app.service.db.execute(
    sql`update webhooks set enabled = false where workspace_id = ${ws.workspaceId}`,
  );
});
afterAll(() => app?.stop());

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
}

async function subscribe(url: string, events: string[] = ['*']) {
  const id = newId('webhook');
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  await app.service.db
    .insert(schema.webhooks)
    .values({ workspaceId: ws.workspaceId, id, url, events, secret });
  return { id, secret };
}

const createRecord = (title: string) =>
  app.api(ws.apiKey, 'POST', '/api/v1/records', {
    folderId: ws.folderId,
    title,
    email: `${title.toLowerCase()}@example.com`,
  });

/** The Standard Webhooks headers of a received request, as `Webhook.verify` takes them. */
function standardHeaders(request: ReceivedRequest) {
  return {
    'webhook-id': request.headers['webhook-id'] as string,
    'webhook-timestamp': request.headers['webhook-timestamp'] as string,
    'webhook-signature': request.headers['webhook-signature'] as string,
  };
}

async function deliveriesOf(webhookId: string) {
  const result = await app.service.db.execute<{ id: string; status: string; attempt_count: number }>(
    sql`select id, status, attempt_count from deliveries where webhook_id = ${webhookId} order by created_at`,
  );
  return result.rows;
}

async function attemptsOf(webhookId: string) {
  const result = await app.service.db.execute<{
    attempt: number;
    response_status: number | null;
    error: string | null;
    started_at: Date;
    response_excerpt: string | null;
  }>(sql`
    select a.attempt, a.response_status, a.error, a.started_at, a.response_excerpt from delivery_attempts a
      join deliveries d on d.workspace_id = a.workspace_id and d.id = a.delivery_id where d.webhook_id = ${webhookId} order by a.attempt`);
  return result.rows;
}

describe('webhook delivery', () => {
  it('delivers a signed record.created that both verifiers accept, and a flipped byte fails both', async () => {
    const r = await receiver();
    const { id, secret } = await subscribe(`${r.url}/hook`, ['record.created']);
    const created = await createRecord('Ada');
    const [request] = await r.waitFor(1);
    const body = request!.body.toString('utf8');
    const payload = JSON.parse(body);
    expect(payload).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      event: 'record.created',
      recordId: created.body.data.id,
      folderId: ws.folderId,
      workspaceId: ws.workspaceId,
      occurredAt: expect.stringMatching(/\.\d{3}Z$/),
      record: { id: created.body.data.id, title: 'Ada', email: 'ada@example.com', phone: null, data: {} },
    });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/^crm-webhooks\//);
    expect(request!.headers['x-service-event']).toBe('record.created');
    expect(request!.headers['x-service-delivery']).toMatch(/^dlv_/);
    expect(request!.headers['webhook-id']).toBe(payload.id);
    const signature = request!.headers['x-service-signature'] as string;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(request!.headers['x-service-signature-previous']).toBeUndefined();
    expect(await verifyGithubStyle(secret, body, signature)).toBe(true);
    const headers = {
      'webhook-id': request!.headers['webhook-id'] as string,
      'webhook-timestamp': request!.headers['webhook-timestamp'] as string,
      'webhook-signature': request!.headers['webhook-signature'] as string,
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(payload);
    const flipped = Buffer.from(request!.body);
    flipped[10] = flipped[10]! ^ 1;
    expect(await verifyGithubStyle(secret, flipped.toString('utf8'), signature)).toBe(false);
    expect(() => new Webhook(secret).verify(flipped.toString('utf8'), headers)).toThrow();
    await eventually(async () => (await deliveriesOf(id))[0]?.status === 'SUCCEEDED');
    expect(await attemptsOf(id)).toMatchObject([{ attempt: 1, response_status: 200, error: null }]);
  });

  it('retries after a 500 and succeeds, keeping the event id and each attempt', async () => {
    const r = await receiver();
    r.reply({ status: 500, body: 'boom' });
    const { id } = await subscribe(r.url, ['record.created']);
    await createRecord('Grace');
    const requests = await r.waitFor(2);
    expect(requests[0]!.headers['webhook-id']).toBe(requests[1]!.headers['webhook-id']);
    expect(requests[0]!.body.equals(requests[1]!.body)).toBe(true);
    await eventually(async () => (await deliveriesOf(id))[0]?.status === 'SUCCEEDED');
    expect(await attemptsOf(id)).toMatchObject([
      { attempt: 1, response_status: 500, error: 'HTTP 500', response_excerpt: 'boom' },
      { attempt: 2, response_status: 200, error: null },
    ]);
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const r = await receiver();
    r.reply('hang');
    const { id } = await subscribe(r.url, ['record.created']);
    await createRecord('Linus');
    await r.waitFor(2);
    await eventually(async () => (await deliveriesOf(id))[0]?.status === 'SUCCEEDED');
    const [first] = await attemptsOf(id);
    expect(first).toMatchObject({ attempt: 1, response_status: null, error: 'timeout' });
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const r = await receiver();
    r.reply({ status: 302, headers: { Location: `http://127.0.0.1:${r.port}/elsewhere` } });
    const { id } = await subscribe(`${r.url}/hook`, ['record.created']);
    await createRecord('Barbara');
    await r.waitFor(2);
    await eventually(async () => (await deliveriesOf(id))[0]?.status === 'SUCCEEDED');
    expect(r.requests.map((q) => q.path)).toEqual(['/hook', '/hook']);
    expect((await attemptsOf(id))[0]).toMatchObject({ response_status: 302, error: 'HTTP 302' });
  });

  it('disables the subscription on 410 Gone and sends nothing more', async () => {
    const r = await receiver();
    r.always({ status: 410 });
    const { id } = await subscribe(r.url, ['record.created']);
    await createRecord('Gone');
    await r.waitFor(1);
    const row = await eventually(async () => {
      const result = await app.service.db.execute<{ enabled: boolean; disabled_reason: string | null }>(
        sql`select enabled, disabled_reason from webhooks where id = ${id}`,
      );
      return result.rows[0]?.enabled === false ? result.rows[0] : undefined;
    });
    expect(row.disabled_reason).toMatch(/410/);
    await createRecord('After');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.requests).toHaveLength(1);
    expect((await deliveriesOf(id))[0]?.status).toBe('FAILED');
  });

  it('delivers everything once the receiver comes back, once per event', async () => {
    const r = await receiver();
    const { id } = await subscribe(r.url, ['record.created']);
    const port = r.port;
    await r.stop();
    for (const title of ['One', 'Two', 'Three']) await createRecord(title);
    await eventually(async () => (await attemptsOf(id)).length >= 3);
    expect((await attemptsOf(id)).every((a) => a.error === 'connection refused')).toBe(true);
    await r.start(port);
    await eventually(async () => (await deliveriesOf(id)).every((d) => d.status === 'SUCCEEDED'));
    const titles = r.requests
      .filter((q) => q.answered === 200)
      .map((q) => JSON.parse(q.body.toString()).record.title);
    expect(titles.sort()).toEqual(['One', 'Three', 'Two']);
  });

  it('spaces attempts at least as far apart as the schedule says', async () => {
    const r = await receiver();
    r.reply({ status: 503 }, { status: 503 });
    const { id } = await subscribe(r.url, ['record.created']);
    await createRecord('Paced');
    await r.waitFor(3, 20_000);
    const [a, b, c] = r.requests;
    // 5 s and 300 s scaled by 0.001, less the 20 % jitter.
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(4);
    expect(c!.at - b!.at).toBeGreaterThanOrEqual(240);
    await eventually(async () => (await deliveriesOf(id))[0]?.status === 'SUCCEEDED');
  });

  it('during a rotation, a receiver with only the old secret and one with only the new secret both verify', async () => {
    const r = await receiver();
    const { id, secret: oldSecret } = await subscribe(r.url, ['record.created']);
    const rotated = await app.api(ws.apiKey, 'POST', `/api/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.data.secret;
    await createRecord('Rotated');
    const [request] = await r.waitFor(1);
    const body = request!.body.toString('utf8');
    const signature = request!.headers['x-service-signature'] as string;
    const previous = request!.headers['x-service-signature-previous'] as string;
    // One value in each header, so GitHub's verifier and a plain equality check both work.
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(previous).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signature).toBe(await signGithubStyle(newSecret, body));
    expect(previous).toBe(await signGithubStyle(oldSecret, body));
    const headers = standardHeaders(request!);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);

    // The receiver that has switched to the new secret.
    expect(await verifyGithubStyle(newSecret, body, signature)).toBe(true);
    expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
    // The receiver that still has the old one.
    expect(await verifyGithubStyle(oldSecret, body, previous)).toBe(true);
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
    // Neither service header verifies with the other secret.
    expect(await verifyGithubStyle(oldSecret, body, signature)).toBe(false);
    expect(await verifyGithubStyle(newSecret, body, previous)).toBe(false);
  });

  it('after the rotation window, only the new secret signs and there is no -Previous header', async () => {
    const r = await receiver();
    const { id, secret: oldSecret } = await subscribe(r.url, ['record.created']);
    const rotated = await app.api(ws.apiKey, 'POST', `/api/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.data.secret;
    // The 24 hours are over.
    await app.service.db.execute(
      sql`update webhooks set previous_secret_expires_at = now() - interval '1 second' where id = ${id}`,
    );
    await createRecord('Expired');
    const [request] = await r.waitFor(1);
    const body = request!.body.toString('utf8');
    const signature = request!.headers['x-service-signature'] as string;
    expect(request!.headers['x-service-signature-previous']).toBeUndefined();
    expect(signature).toBe(await signGithubStyle(newSecret, body));
    const headers = standardHeaders(request!);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    expect(await verifyGithubStyle(newSecret, body, signature)).toBe(true);
    expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(await verifyGithubStyle(oldSecret, body, signature)).toBe(false);
    expect(() => new Webhook(oldSecret).verify(body, headers)).toThrow();
  });

  it('disables a subscription that has failed for 5 days without a success', async () => {
    const r = await receiver();
    r.always({ status: 500 });
    const { id } = await subscribe(r.url, ['record.created']);
    await app.service.db.execute(
      sql`update webhooks set failing_since = now() - interval '5 days 1 minute' where id = ${id}`,
    );
    await createRecord('Hopeless');
    const row = await eventually(async () => {
      const result = await app.service.db.execute<{ enabled: boolean; disabled_reason: string | null }>(
        sql`select enabled, disabled_reason from webhooks where id = ${id}`,
      );
      return result.rows[0]?.enabled === false ? result.rows[0] : undefined;
    });
    expect(row.disabled_reason).toBe('No successful delivery for 5 days');
    expect(r.requests).toHaveLength(1);
  });

  it('delivers a burst to several subscriptions once each, recording every attempt', async () => {
    const r = await receiver();
    const hooks = await Promise.all(
      ['a', 'b', 'c'].map((name) => subscribe(`${r.url}/${name}`, ['record.created'])),
    );
    const titles = Array.from({ length: 40 }, (_, i) => `Burst${i}`);
    for (let i = 0; i < titles.length; i += 10) {
      const made = await Promise.all(titles.slice(i, i + 10).map((title) => createRecord(title)));
      expect(made.map((m) => m.status)).toEqual(Array(10).fill(201));
    }
    // Each event reaches each subscription; a retried attempt may have reached it twice.
    const seen = () => new Set(r.requests.map((q) => `${q.path} ${q.headers['webhook-id']}`));
    await eventually(async () => seen().size >= 120, 20_000);
    expect(seen().size).toBe(120);
    for (const hook of hooks) {
      await eventually(async () => (await deliveriesOf(hook.id)).every((d) => d.status === 'SUCCEEDED'));
      const deliveries = await deliveriesOf(hook.id);
      expect(deliveries).toHaveLength(40);
      // Every attempt is recorded: one row per counted attempt, and exactly one success per
      // delivery. This file's timeouts are 300 and 400 ms, so on a loaded machine an attempt
      // may time out (or meet a reset connection) and be retried; no other failure may show.
      const attempts = await attemptsOf(hook.id);
      expect(attempts).toHaveLength(deliveries.reduce((sum, d) => sum + d.attempt_count, 0));
      expect(attempts.filter((a) => a.response_status === 200)).toHaveLength(40);
      for (const failed of attempts.filter((a) => a.response_status !== 200)) {
        expect(failed.error).toMatch(/timeout|connection reset/);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The receiver saw each event once per subscription, plus any attempt that timed out
    // after its request arrived.
    const retried = (await Promise.all(hooks.map((h) => attemptsOf(h.id)))).flat().length - 120;
    expect(r.requests.length).toBeGreaterThanOrEqual(120);
    expect(r.requests.length).toBeLessThanOrEqual(120 + retried);
  });

  it('gives a receiver that hangs at most half the attempts in flight, and the others go on', async () => {
    let open = 0;
    let most = 0;
    const hanging = createServer((req, res) => {
      open++;
      most = Math.max(most, open);
      req.resume();
      res.on('close', () => open--);
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hanging.address() as AddressInfo;
      await subscribe(`http://127.0.0.1:${port}/`, ['record.created']);
      const r = await receiver();
      await subscribe(r.url, ['record.created']);
      const titles = Array.from({ length: 80 }, (_, i) => `Stuck${i}`);
      for (let i = 0; i < titles.length; i += 10) {
        await Promise.all(titles.slice(i, i + 10).map((title) => createRecord(title)));
      }
      await r.waitFor(80, 20_000);
      expect(most).toBeGreaterThan(1);
      // WEBHOOK_CONCURRENCY is 64 by default.
      expect(most).toBeLessThanOrEqual(32);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});
