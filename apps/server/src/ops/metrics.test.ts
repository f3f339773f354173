import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * The operations listener of an all-in-one process (docs/operations.md, "Metrics"): requests,
 * 429s, webhook deliveries and workflow runs made through the API show up in /metrics, and
 * health answers there too.
 */

let app: TestApp;
let ws: TestWorkspace;
let receiver: Receiver;
let ops: string;

beforeAll(async () => {
  app = await startTestApp({
    worker: true,
    env: { WORKER_POLL_INTERVAL_MS: '50', WORKFLOW_RETRY_SCALE: '0.001', WEBHOOK_RETRY_SCALE: '0.001' },
  });
  ops = app.service.opsUrl!;
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus's text format (the lines this service writes: no timestamps, no escapes in labels). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(): Promise<Sample[]> {
  const res = await fetch(`${ops}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found.length === 0 ? undefined : found.reduce((sum, s) => sum + s.value, 0);
}

describe('the operations listener', () => {
  it('answers health and readiness apart from the API, and nothing else', async () => {
    expect(ops).not.toBe(app.url);
    const health = await fetch(`${ops}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', role: 'all' });
    const ready = await fetch(`${ops}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', role: 'all' });
    expect((await fetch(`${ops}/api/v1/records`)).status).toBe(404);
    const post = await fetch(`${ops}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    // The API port does not serve metrics.
    expect((await fetch(`${app.url}/metrics`, { headers: { Accept: 'application/json' } })).status).toBe(404);
  });

  it('measures requests by route template and status, and counts 429s', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'Ada',
    });
    expect(created.status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await app.api(ws.apiKey, 'GET', `/api/v1/records/${created.body.data.id}`)).status).toBe(200);
    }
    expect((await app.api(ws.apiKey, 'GET', '/api/v1/records/rec_missing')).status).toBe(404);
    expect((await app.api(null, 'GET', '/api/v1/nothing-here')).status).toBe(404);
    const limited = await app.createWorkspace({ rateLimitPerMinute: 1 });
    // The key's first use in createWorkspace spent the one request of the minute.
    const refused = await app.api(limited.apiKey, 'GET', '/api/v1/me');
    expect(refused.status).toBe(429);

    const samples = await scrape();
    const one = { method: 'GET', route: '/api/v1/records/{id}' };
    expect(value(samples, 'crm_http_request_duration_seconds_count', { ...one, status: '200' })).toBe(3);
    expect(value(samples, 'crm_http_request_duration_seconds_count', { ...one, status: '404' })).toBe(1);
    expect(
      value(samples, 'crm_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/records',
        status: '201',
      }),
    ).toBe(1);
    expect(
      value(samples, 'crm_http_request_duration_seconds_bucket', { ...one, status: '200', le: '+Inf' }),
    ).toBe(3);
    // A path that matches no route is never a label value of its own.
    expect(samples.some((s) => s.labels.route?.includes('nothing-here'))).toBe(false);
    expect(
      value(samples, 'crm_http_request_duration_seconds_count', { route: '(unmatched)', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'crm_http_rate_limited_total', { route: '/api/v1/me' })).toBe(1);
  });

  it("names a route of the server's own router by its pattern", async () => {
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    const samples = await scrape();
    expect(
      value(samples, 'crm_http_request_duration_seconds_count', { route: '/healthz', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('names tRPC procedures, never what a client made up', async () => {
    await fetch(`${app.url}/trpc/records.list?input=%7B%7D`, {
      headers: { Authorization: `Bearer ${ws.apiKey}` },
    });
    await fetch(`${app.url}/trpc/made.up.name`, { headers: { Authorization: `Bearer ${ws.apiKey}` } });
    const samples = await scrape();
    expect(value(samples, 'crm_http_request_duration_seconds_count', { route: '/trpc/records.list' })).toBe(
      1,
    );
    expect(value(samples, 'crm_http_request_duration_seconds_count', { route: '/trpc/(unknown)' })).toBe(1);
    expect(samples.some((s) => s.labels.route?.includes('made.up'))).toBe(false);
  });

  it('counts webhook deliveries by outcome, with the lag of first attempts', async () => {
    receiver.reply({ status: 500 });
    const hook = await app.api(ws.apiKey, 'POST', '/api/v1/webhooks', {
      url: `${receiver.url}/hook`,
      events: ['record.created'],
    });
    expect(hook.status).toBe(201);
    const before = await scrape();
    const firstAttempts = value(before, 'crm_webhook_delivery_lag_seconds_count') ?? 0;
    await app.api(ws.apiKey, 'POST', '/api/v1/records', { folderId: ws.folderId, title: 'Grace' });
    await receiver.waitFor(2, 20_000, '/hook');
    const samples = await eventually(async () => {
      const now = await scrape();
      return value(now, 'crm_webhook_deliveries_total', { outcome: 'succeeded' }) === 1 ? now : undefined;
    });
    expect(value(samples, 'crm_webhook_deliveries_total', { outcome: 'retry' })).toBe(1);
    // The retry is not a first attempt: one lag observation for the one delivery.
    expect(value(samples, 'crm_webhook_delivery_lag_seconds_count')).toBe(firstAttempts + 1);
    expect(value(samples, 'crm_webhook_deliveries_pending', { state: 'all' })).toBe(0);
    expect(value(samples, 'crm_webhook_deliveries_pending', { state: 'due' })).toBe(0);
    expect(value(samples, 'crm_webhook_deliveries_oldest_due_seconds')).toBe(0);
    for (const state of ['ready', 'scheduled', 'running', 'failed']) {
      expect(value(samples, 'crm_jobs', { state }), state).toBeGreaterThanOrEqual(0);
    }
  });

  it('counts workflow runs by final status and step retries', async () => {
    receiver.reply({ status: 503 });
    const saved = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
      name: 'Measured',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'HTTP_REQUEST', url: `${receiver.url}/flow`, body: { n: 1 } }],
    });
    expect(saved.status).toBe(201);
    const trigger = await fetch(saved.body.data.trigger.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(trigger.status).toBe(200);
    const { runId } = (await trigger.json()) as { runId: string };
    await eventually(async () => {
      const run = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runId}`);
      return run.body.data.status === 'SUCCEEDED';
    }, 20_000);
    const samples = await scrape();
    expect(value(samples, 'crm_workflow_runs_total', { status: 'succeeded' })).toBe(1);
    expect(value(samples, 'crm_workflow_runs_total', { status: 'failed' }) ?? 0).toBe(0);
    expect(value(samples, 'crm_workflow_step_retries_total', { action: 'HTTP_REQUEST' })).toBe(1);
  });

  it('shows the webhook attempts in flight and how long the dispatcher has been in a statement', async () => {
    const slow = await new Receiver().start();
    slow.always('hang');
    try {
      const hook = await app.api(ws.apiKey, 'POST', '/api/v1/webhooks', {
        url: `${slow.url}/slow`,
        events: ['task.created'],
      });
      expect(hook.status).toBe(201);
      expect((await app.api(ws.apiKey, 'POST', '/api/v1/tasks', { title: 'Held' })).status).toBe(201);
      await slow.waitFor(1, 20_000, '/slow');
      // The receiver holds the request: its attempt is being sent, and no statement is under way for long.
      const held = await scrape();
      expect(value(held, 'crm_webhook_attempts_in_flight', { stage: 'sending' })).toBe(1);
      expect(value(held, 'crm_webhook_attempts_in_flight', { stage: 'recording' })).toBe(0);
      // Nothing is being recorded while the attempt is sent; claims go on beside it and each
      // returns: among a few scrapes, one finds the dispatcher in no claim.
      expect(value(held, 'crm_webhook_dispatcher_busy_seconds', { statement: 'record' })).toBe(0);
      const claims: (number | undefined)[] = [];
      for (let i = 0; i < 20 && !claims.includes(0); i++) {
        claims.push(value(await scrape(), 'crm_webhook_dispatcher_busy_seconds', { statement: 'claim' }));
      }
      expect(claims).toContain(0);
      expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/webhooks/${hook.body.data.id}`)).status).toBe(200);
    } finally {
      await slow.stop();
    }
    // Its connection cut, the attempt fails and is recorded: nothing is left in flight.
    await eventually(async () => {
      const now = await scrape();
      return (
        value(now, 'crm_webhook_attempts_in_flight', { stage: 'sending' }) === 0 &&
        value(now, 'crm_webhook_attempts_in_flight', { stage: 'recording' }) === 0
      );
    });
  });

  it('reports the use of each database pool and the process itself', async () => {
    const samples = await scrape();
    for (const pool of ['main', 'counters', 'deliveries']) {
      expect(value(samples, 'crm_db_pool_connections', { pool, state: 'total' }), pool).toBeGreaterThan(0);
      expect(value(samples, 'crm_db_pool_connections', { pool, state: 'waiting' }), pool).toBe(0);
    }
    expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(value(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});
