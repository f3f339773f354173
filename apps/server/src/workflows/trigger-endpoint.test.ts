import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createDatabase, createPool } from '@crm/db';
import { parseAllowList } from '@crm/webhooks';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { createLogger } from '../logger.ts';
import { apiServices } from '../outbound.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  // No worker: runs stay QUEUED, so each test sees exactly what the endpoint wrote.
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
});
afterAll(() => app?.stop());

async function createWorkflow(body: Record<string, unknown> = {}) {
  const res = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
    name: 'Web form lead',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions: [{ type: 'CREATE_RECORD', folderId: ws.folderId, title: '{{ trigger.body.name }}' }],
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; trigger: { url: string }; secret: string | null };
}

function trigger(workflowId: string, body: unknown, headers: Record<string, string> = {}) {
  return app.api(null, 'POST', `/api/webhooks/trigger/${workflowId}`, body, headers);
}

async function runsOf(workflowId: string) {
  const result = await app.service.db.execute<{
    id: string;
    status: string;
    record_id: string | null;
    input: unknown;
  }>(
    sql`select id, status, record_id, input from workflow_runs where workflow_id = ${workflowId} order by created_at`,
  );
  return result.rows;
}

const withoutRequestId = (body: { ok: boolean; error: Record<string, unknown> }) => ({
  ...body,
  error: { ...body.error, requestId: undefined },
});

describe('POST /api/webhooks/trigger/{workflowId}', () => {
  it('answers 200 { ok, workflowId, runId } once the run and its job are committed', async () => {
    const workflow = await createWorkflow();
    expect(workflow.trigger.url).toBe(`${app.url}/api/webhooks/trigger/${workflow.id}`);
    const res = await app.api(null, 'POST', new URL(workflow.trigger.url).pathname, {
      name: 'Ada',
      email: 'ada@example.com',
      nested: { a: [1, 2] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, workflowId: workflow.id, runId: expect.stringMatching(/^run_/) });
    const runs = await runsOf(workflow.id);
    expect(runs).toEqual([
      {
        id: res.body.runId,
        status: 'QUEUED',
        record_id: null,
        input: { name: 'Ada', email: 'ada@example.com', nested: { a: [1, 2] } },
      },
    ]);
    const jobs = await app.service.db.execute<{ payload: { runId: string } }>(
      sql`select j.payload from graphile_worker._private_jobs j
            join graphile_worker._private_tasks t on t.id = j.task_id
           where t.identifier = 'run_workflow' and j.payload->>'runId' = ${res.body.runId}`,
    );
    expect(jobs.rows.map((j) => j.payload.runId)).toEqual([res.body.runId]);
  });

  it('gives workflow ids 128 random bits, unrelated to creation time', async () => {
    const a = await createWorkflow();
    const b = await createWorkflow();
    expect(a.id).toMatch(/^wf_[0-9a-hjkmnp-tv-z]{26}$/);
    // Consecutive UUIDv7-style ids share their timestamp prefix; random ones do not.
    expect(a.id.slice(3, 11)).not.toBe(b.id.slice(3, 11));
  });

  it('answers the same 404 for an unknown, malformed, disabled or event-triggered workflow', async () => {
    const disabled = await createWorkflow({ enabled: false });
    const onEvent = await createWorkflow({ trigger: { type: 'record.created' } });
    const deleted = await createWorkflow();
    expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/workflows/${deleted.id}`)).status).toBe(200);
    const ids = [
      'wf_00000000000000000000000000',
      'wf_nope',
      'rec_01jq3v6f6ve7s9t8m1k2c3d4e5',
      disabled.id,
      onEvent.id,
      deleted.id,
    ];
    const answers = await Promise.all(ids.map((id) => trigger(id, { name: 'x' })));
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body.ok).toBe(false);
      expect(res.body.error.requestId).toBeTruthy();
      expect(withoutRequestId(res.body)).toEqual(withoutRequestId(answers[0]!.body));
    }
    expect(answers[0]!.body.error).toMatchObject({
      code: 'NOT_FOUND',
      message: 'No enabled workflow at this URL',
    });
    expect(await runsOf(disabled.id)).toEqual([]);
  });

  it('refuses bodies that are not a JSON object, too large, or with a bad recordId — and queues nothing', async () => {
    const workflow = await createWorkflow();
    const path = `/api/webhooks/trigger/${workflow.id}`;
    const form = await app.api(null, 'POST', path, 'name=Ada', {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect(form.body).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const malformed = await app.api(null, 'POST', path, '{"name": ', { 'Content-Type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('VALIDATION_FAILED');
    const array = await app.api(null, 'POST', path, '[1,2]', { 'Content-Type': 'application/json' });
    expect(array.status).toBe(400);
    const big = await app.api(null, 'POST', path, { blob: 'x'.repeat(1024 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    const numeric = await trigger(workflow.id, { recordId: 42 });
    expect(numeric.status).toBe(400);
    expect(numeric.body.error.details).toEqual([
      { path: 'recordId', message: 'must be a string (a record id)' },
    ]);
    const unknown = await trigger(workflow.id, { recordId: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5' });
    expect(unknown.status).toBe(404);
    const other = await app.createWorkspace();
    const foreign = await app.api(other.apiKey, 'POST', '/api/v1/records', {
      folderId: other.folderId,
      title: 'B',
    });
    expect((await trigger(workflow.id, { recordId: foreign.body.data.id })).status).toBe(404);
    const trashed = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'Gone',
    });
    await app.api(ws.apiKey, 'DELETE', `/api/v1/records/${trashed.body.data.id}`);
    expect((await trigger(workflow.id, { recordId: trashed.body.data.id })).status).toBe(404);
    expect(await runsOf(workflow.id)).toEqual([]);

    const live = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'Here',
    });
    const ok = await trigger(workflow.id, { recordId: live.body.data.id, note: 'hi' });
    expect(ok.status).toBe(200);
    expect((await runsOf(workflow.id)).map((r) => r.record_id)).toEqual([live.body.data.id]);
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const workflow = await createWorkflow();
    const res = await app.api(null, 'GET', `/api/webhooks/trigger/${workflow.id}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body).toMatchObject({ ok: false, error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it('requires X-Service-Signature when the workflow has a secret, and accepts the old one for a day after rotation', async () => {
    const workflow = await createWorkflow({ requireSignature: true });
    expect(workflow.secret).toMatch(/^whsec_/);
    const body = JSON.stringify({ name: 'Signed' });
    const sign = (secret: string, text: string) =>
      `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;
    const send = (signature?: string) =>
      app.api(null, 'POST', `/api/webhooks/trigger/${workflow.id}`, body, {
        'Content-Type': 'application/json',
        ...(signature ? { 'X-Service-Signature': signature } : {}),
      });
    const missing = await send();
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('UNAUTHORIZED');
    expect((await send(sign('whsec_wrong', body))).status).toBe(401);
    expect((await send(sign(workflow.secret!, `${body} `))).status).toBe(401);
    expect((await send('sha256=zz')).status).toBe(401);
    expect((await send(sign(workflow.secret!, body))).status).toBe(200);

    const rotated = await app.api(ws.apiKey, 'POST', `/api/v1/workflows/${workflow.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(workflow.secret);
    expect((await send(sign(rotated.body.data.secret, body))).status).toBe(200);
    expect((await send(sign(workflow.secret!, body))).status).toBe(200);
    await app.service.db.execute(
      sql`update workflows set previous_secret_expires_at = now() - interval '1 second' where id = ${workflow.id}`,
    );
    expect((await send(sign(workflow.secret!, body))).status).toBe(401);
    expect(await runsOf(workflow.id)).toHaveLength(3);
  });

  it('makes one run of 20 concurrent identical calls with one Idempotency-Key', async () => {
    const workflow = await createWorkflow();
    const calls = await Promise.all(
      Array.from({ length: 20 }, () =>
        trigger(workflow.id, { name: 'Once' }, { 'Idempotency-Key': 'form-123' }),
      ),
    );
    const runs = await runsOf(workflow.id);
    expect(runs).toHaveLength(1);
    for (const res of calls) {
      // Each call either got the run (first or replayed) or was told the first is still running.
      if (res.status === 200)
        expect(res.body).toEqual({ ok: true, workflowId: workflow.id, runId: runs[0]!.id });
      else expect(res.status).toBe(409);
    }
    const replay = await trigger(workflow.id, { name: 'Once' }, { 'Idempotency-Key': 'form-123' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.runId).toBe(runs[0]!.id);
    const reused = await trigger(workflow.id, { name: 'Twice' }, { 'Idempotency-Key': 'form-123' });
    expect(reused.status).toBe(422);
    expect(reused.body.ok).toBe(false);
    expect(await runsOf(workflow.id)).toHaveLength(1);
  });

  it('limits calls per workflow with 429 and Retry-After', async () => {
    const workflow = await createWorkflow({ rateLimitPerMinute: 3 });
    const other = await createWorkflow({ rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i++) {
      const res = await trigger(workflow.id, { i });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
    }
    const limited = await trigger(workflow.id, { i: 4 });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await trigger(other.id, {})).status).toBe(200);
    expect(await runsOf(workflow.id)).toHaveLength(3);
  });

  it('accepts exactly the limit of many concurrent calls, counted in batches', async () => {
    const workflow = await createWorkflow({ rateLimitPerMinute: 5 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => trigger(workflow.id, { i })));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    const remaining = answers
      .filter((res) => res.status === 200)
      .map((res) => res.headers.get('ratelimit-remaining'));
    expect(remaining.sort()).toEqual(['0', '1', '2', '3', '4']);
    expect(await runsOf(workflow.id)).toHaveLength(5);
  });

  it('answers 503 with Retry-After when the database cannot be reached', async () => {
    const pool = createPool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', max: 1 });
    const db = createDatabase(pool);
    const offline = createApp({
      db,
      pool,
      services: apiServices(parseAllowList(undefined), 'http://127.0.0.1'),
      logger: createLogger('silent'),
      publicUrl: '',
      version: 'test',
    });
    const server = offline.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/webhooks/trigger/wf_00000000000000000000000000`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    }
  });
});
