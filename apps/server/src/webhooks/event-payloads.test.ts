import { eventPayloads, eventTypes, runJob } from '@crm/domain';
import { parseAllowList } from '@crm/webhooks';
import { executeRun } from '@crm/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiValidator } from '../testing/openapi-validator.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * The OpenAPI document's `webhooks` section (docs/webhooks.md, "Payload"): one entry per event
 * kind, whose payload schema every event the service really writes must match. Every kind is
 * made happen through the API, and the stored payloads (what a delivery's body is, byte for
 * byte) are checked against the document's schema for their kind, and the event feed's answers
 * against its `Event`, whose payload is typed by kind with the same schemas.
 */

let app: TestApp;
let ws: TestWorkspace;
let doc: Record<string, unknown>;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  doc = (await (await fetch(`${app.url}/api/v1/openapi.json`)).json()) as Record<string, unknown>;
});
afterAll(() => app?.stop());

async function ok(method: string, path: string, body?: unknown) {
  const res = await app.api(ws.apiKey, method, `/api/v1${path}`, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body.data;
}

describe('the webhooks section of the OpenAPI document', () => {
  it('has one webhook per event kind, each with its typed payload and the signature headers', () => {
    const webhooks = doc.webhooks as Record<string, { post: { parameters: { name: string }[] } }>;
    expect(Object.keys(webhooks).sort()).toEqual(Object.keys(eventPayloads).sort());
    for (const [kind, item] of Object.entries(webhooks)) {
      const names = item.post.parameters.map((p) => p.name);
      expect(names, kind).toEqual(
        expect.arrayContaining(['X-Service-Signature', 'webhook-signature', 'webhook-id']),
      );
    }
  });

  it('describes every payload the service writes, kind by kind', async () => {
    const folder = await ok('POST', '/folders', {
      name: 'Payloads',
      fields: [{ key: 'stage', label: 'Stage', type: 'SELECT', options: ['Lead', 'Customer'] }],
    });
    const record = await ok('POST', '/records', {
      folderId: folder.id,
      title: 'Ada',
      email: 'ada@example.com',
    });
    await ok('PATCH', `/records/${record.id}`, { data: { stage: 'Customer' } });
    await ok('DELETE', `/records/${record.id}`);
    await ok('POST', `/records/${record.id}/restore`);
    const pipeline = await ok('POST', '/pipelines', { name: 'Payloads', stages: ['A', 'B'] });
    const deal = await ok('POST', '/deals', { pipelineId: pipeline.id, title: 'Deal', recordId: record.id });
    await ok('POST', '/deals', { pipelineId: pipeline.id, title: 'Unlinked deal' });
    await ok('PATCH', `/deals/${deal.id}`, { stageId: pipeline.stages[1].id, amount: 12.5 });
    const task = await ok('POST', '/tasks', {
      title: 'Call',
      recordId: record.id,
      recurrence: 'WEEKLY',
      dueAt: '2026-12-01T09:00:00Z',
    });
    await ok('PATCH', `/tasks/${task.id}`, { status: 'DONE' });
    await ok('POST', '/tasks', { title: 'Unlinked task' });
    // A link (record.linked), its label changed (record.linked with previousLabel), and removed.
    await ok('POST', `/folders/${folder.id}/fields`, {
      key: 'partner',
      label: 'Partner',
      type: 'RELATION',
      relation: { folderId: folder.id, cardinality: 'ONE', labels: ['Main', 'Backup'] },
      inverse: { key: 'partnerOf', label: 'Partner of', cardinality: 'MANY' },
    });
    const other = await ok('POST', '/records', { folderId: folder.id, title: 'Grace' });
    await ok('PATCH', `/records/${other.id}`, { data: { partner: record.id } });
    await ok('POST', `/records/${other.id}/links`, { field: 'partner', to: record.id, label: 'Backup' });
    await ok('DELETE', `/records/${record.id}/links/partnerOf/${other.id}`);
    const hook = await ok('POST', '/webhooks', { url: 'http://127.0.0.1:1/hook', events: ['*'] });
    await ok('POST', `/webhooks/${hook.id}/test`);
    // A run that fails (workflow.run_failed), executed here as the worker would.
    const failing = await ok('POST', '/workflows', {
      name: 'Fails',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CODE', name: 'boom', source: 'throw new Error("no");' }],
    });
    const triggered = await fetch(failing.trigger.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { runId } = (await triggered.json()) as { runId: string };
    await executeRun(
      app.service.db,
      { id: runId },
      { http: { allow: parseAllowList(undefined) }, retry: { scale: 0.001, jitter: 0 } },
    );
    // Two export jobs, run here as the worker would: one completes (job.completed); the other's
    // folder is made one that does not exist (folders are never deleted), so it fails (job.failed).
    const done = await ok('POST', '/jobs/exports', { folderId: folder.id, format: 'csv' });
    const lost = await ok('POST', '/jobs/exports', { folderId: folder.id, format: 'ndjson' });
    await app.service.db.$client.query(
      `update jobs set params = jsonb_set(params, '{folderId}', '"fld_01jq3v6f6ve7s9t8m1k2c3d4e5"') where id = $1`,
      [lost.id],
    );
    for (const job of [done, lost]) {
      for (let turn = 0; turn < 10; turn++) {
        await runJob(app.service.db, { workspaceId: ws.workspaceId, id: job.id });
        if (!['QUEUED', 'RUNNING'].includes((await ok('GET', `/jobs/${job.id}`)).status)) break;
      }
    }
    expect((await ok('GET', `/jobs/${done.id}`)).status).toBe('SUCCEEDED');
    expect((await ok('GET', `/jobs/${lost.id}`)).status).toBe('FAILED');

    const { rows } = await app.service.db.$client.query<{ type: string; payload: unknown }>(
      'select type, payload from events where workspace_id = $1 order by occurred_at, id',
      [ws.workspaceId],
    );
    const v = createOpenApiValidator(doc);
    const seen = new Set<string>();
    for (const { type, payload } of rows) {
      expect(v.validateWebhookPayload(type, payload), `${type}: ${JSON.stringify(payload)}`).toEqual([]);
      seen.add(type);
    }
    expect([...seen].sort()).toEqual(Object.keys(eventPayloads).sort());
  });

  it('types the event feed’s payloads by kind: the feed’s answers validate against `Event`, a wrong kind does not', async () => {
    // Past the feed's settling delay; the events are those the test above made happen. The
    // arithmetic is on a timestamp without time zone (immutable), which a sharded database
    // takes in an UPDATE, where it refuses timestamptz - interval (stable).
    await app.service.db.$client.query(
      "update events set occurred_at = ((occurred_at at time zone 'UTC') - interval '1 minute') at time zone 'UTC' where workspace_id = $1",
      [ws.workspaceId],
    );
    const v = createOpenApiValidator(doc);
    const seen = new Set<string>();
    let after = '';
    let page: {
      data: { type: string; payload: Record<string, unknown> }[];
      meta: { nextCursor: string; hasMore: boolean };
    };
    let last: { headers: Headers; body: typeof page } | undefined;
    do {
      const res = await app.api(ws.apiKey, 'GET', `/api/v1/events?pageSize=200&after=${after}`);
      expect(res.status, res.text).toBe(200);
      expect(v.validateResponse('GET', '/events', 200, res.headers, res.body)).toEqual([]);
      page = res.body;
      for (const event of page.data) seen.add(event.type);
      if (page.data.length) last = { headers: res.headers, body: structuredClone(page) };
      after = page.meta.nextCursor;
    } while (page.meta.hasMore);
    expect([...seen].sort()).toEqual([...eventTypes].sort());

    // The payload is checked against its kind's schema: another kind's, or a field missing, fails.
    const body = last!.body;
    const moved = await ok('GET', '/events?types=deal.stage_changed');
    expect(moved).toHaveLength(1);
    body.data = [{ ...moved[0], type: 'record.created' }];
    expect(v.validateResponse('GET', '/events', 200, last!.headers, body)).not.toEqual([]);
    const { toStageId, ...withoutStage } = moved[0].payload;
    expect(toStageId).toEqual(expect.any(String));
    body.data = [{ ...moved[0], payload: withoutStage }];
    expect(v.validateResponse('GET', '/events', 200, last!.headers, body)).not.toEqual([]);
    body.data = [moved[0]];
    expect(v.validateResponse('GET', '/events', 200, last!.headers, body)).toEqual([]);
  });
});
