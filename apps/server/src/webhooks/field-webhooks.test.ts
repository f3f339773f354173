import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Field-level webhooks (docs/webhooks.md, "Only some fields"): a subscription that names
 * `fields` gets `record.updated`, `deal.updated` and `task.updated` only when one of them
 * changed, each with `changes` and `actor`; an update that changes nothing sends nothing.
 * Shown end to end: the API, the worker, a receiver on loopback that checks both signatures.
 */

let app: TestApp;
let ws: TestWorkspace;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp({ worker: true, env: { WORKER_POLL_INTERVAL_MS: '50' } });
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

const api = (method: string, path: string, body?: unknown) =>
  app.api(ws.apiKey, method, `/api/v1${path}`, body);

describe('a subscription narrowed to fields', () => {
  it('is sent exactly the updates of its fields, signed, with changes and actor', async () => {
    const created = await api('POST', '/webhooks', {
      url: `${receiver.url}/fields`,
      events: ['record.updated', 'deal.updated', 'task.updated'],
      fields: ['data.lifecycle', 'stageId', 'status'],
    });
    expect(created.status, created.text).toBe(201);
    const secret: string = created.body.data.secret;

    const record = (await api('POST', '/records', { folderId: ws.folderId, title: 'Ada' })).body.data;
    // Not a listed field: nothing is sent.
    await api('PATCH', `/records/${record.id}`, { title: 'Ada Lovelace' });
    // A listed one: sent.
    const patched = await api('PATCH', `/records/${record.id}`, { data: { lifecycle: 'Customer' } });
    const requestId = patched.headers.get('x-request-id');
    // The same value again changes nothing: nothing is sent.
    await api('PATCH', `/records/${record.id}`, { data: { lifecycle: 'Customer' } });

    const pipeline = (await api('GET', '/pipelines')).body.data[0];
    const deal = (await api('POST', '/deals', { pipelineId: pipeline.id, title: 'Big' })).body.data;
    await api('PATCH', `/deals/${deal.id}`, { amount: 10 });
    await api('PATCH', `/deals/${deal.id}`, { stageId: pipeline.stages[4].id });
    const task = (await api('POST', '/tasks', { title: 'Call' })).body.data;
    await api('PATCH', `/tasks/${task.id}`, { title: 'Call back' });
    await api('PATCH', `/tasks/${task.id}`, { status: 'DONE' });

    await eventually(async () => receiver.requests.length >= 3);
    // Nothing else comes late: a write after the last one is seen, and still only three.
    await api('PATCH', `/records/${record.id}`, { data: { lifecycle: 'Churned' } });
    await eventually(async () => receiver.requests.length >= 4);

    const verifier = new Webhook(secret);
    const bodies = [];
    for (const request of receiver.requests) {
      verifier.verify(request.body.toString('utf8'), {
        'webhook-id': request.headers['webhook-id'] as string,
        'webhook-timestamp': request.headers['webhook-timestamp'] as string,
        'webhook-signature': request.headers['webhook-signature'] as string,
      });
      const signature = String(request.headers['x-service-signature']);
      expect(await verifyGithubStyle(secret, request.body.toString('utf8'), signature)).toBe(true);
      bodies.push(JSON.parse(request.body.toString('utf8')));
    }
    expect(bodies.map((b) => b.event)).toEqual([
      'record.updated',
      'deal.updated',
      'task.updated',
      'record.updated',
    ]);
    expect(bodies[0]).toMatchObject({
      recordId: record.id,
      changedFields: ['data.lifecycle'],
      changes: { 'data.lifecycle': { from: null, to: 'Customer' } },
      actor: { type: 'apiKey', id: expect.stringMatching(/^key_/) },
      source: 'rest',
      requestId,
    });
    expect(bodies[1]).toMatchObject({
      dealId: deal.id,
      changes: { stageId: { from: pipeline.stages[0].id, to: pipeline.stages[4].id } },
    });
    expect(bodies[2]).toMatchObject({ taskId: task.id, changes: { status: { from: 'OPEN', to: 'DONE' } } });
  });

  it('sends nothing for an update that changes nothing, to a subscription that lists no fields either', async () => {
    // A workspace of its own: the subscription above receives nothing of it.
    const own = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
    const call = (method: string, path: string, body?: unknown) =>
      app.api(own.apiKey, method, `/api/v1${path}`, body);
    const created = await call('POST', '/webhooks', {
      url: `${receiver.url}/every-field`,
      events: ['record.updated', 'deal.updated', 'task.updated'],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.fields).toEqual([]);
    const received = () => receiver.requests.filter((r) => r.path === '/every-field');

    const record = (
      await call('POST', '/records', { folderId: own.folderId, title: 'Ada', data: { lifecycle: 'Lead' } })
    ).body.data;
    const pipeline = (await call('GET', '/pipelines')).body.data[0];
    const deal = (await call('POST', '/deals', { pipelineId: pipeline.id, title: 'Big', amount: 10 })).body
      .data;
    const task = (await call('POST', '/tasks', { title: 'Call' })).body.data;
    // Each update sets what is already there: 200, and nothing to send.
    for (const [path, body] of [
      [`/records/${record.id}`, { title: 'Ada', data: { lifecycle: 'Lead' } }],
      [`/deals/${deal.id}`, { title: 'Big', amount: 10, stageId: deal.stageId }],
      [`/tasks/${task.id}`, { title: 'Call', status: 'OPEN' }],
    ] as const) {
      const res = await call('PATCH', path, body);
      expect(res.status, res.text).toBe(200);
    }
    const batch = await call('PATCH', '/records/batch', { items: [{ id: record.id, title: 'Ada' }] });
    expect(batch.body.data[0].status).toBe(200);
    // A real change after them is sent, and is the only thing sent.
    await call('PATCH', `/records/${record.id}`, { title: 'Ada Lovelace' });
    await eventually(async () => received().length >= 1);
    // The no-ops raised no event at all, so nothing else can be on its way.
    const events = await app.service.pool.query<{ type: string }>(
      `select type from events where workspace_id = $1 and type not like '%.created'`,
      [own.workspaceId],
    );
    expect(events.rows.map((e) => e.type)).toEqual(['record.updated']);
    expect(received().map((r) => JSON.parse(r.body.toString('utf8')))).toEqual([
      expect.objectContaining({
        event: 'record.updated',
        recordId: record.id,
        changes: { title: { from: 'Ada', to: 'Ada Lovelace' } },
      }),
    ]);
  });

  it('refuses fields on a subscription to no updated event, naming them', async () => {
    const res = await api('POST', '/webhooks', {
      url: `${receiver.url}/x`,
      events: ['record.created'],
      fields: ['title'],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'fields', message: expect.stringContaining('record.updated, deal.updated and task.updated') },
    ]);
  });
});
