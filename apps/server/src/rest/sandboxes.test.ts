import { canonicalJson } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let source: TestWorkspace;
let receiver: Receiver;
let companiesId: string;

beforeAll(async () => {
  app = await startTestApp({ worker: true });
  receiver = await new Receiver().start();
  source = await app.createWorkspace({ name: 'Production' });
  const k = source.apiKey;
  const companies = await app.api(k, 'POST', '/api/v1/folders', {
    name: 'Companies',
    fields: [
      { key: 'tier', label: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] },
      { key: 'notes', label: 'Notes', type: 'TEXT' },
    ],
  });
  expect(companies.status).toBe(201);
  companiesId = companies.body.data.id;
  const items = Array.from({ length: 30 }, (_, i) => ({
    folderId: companiesId,
    title: `Company ${i}`,
    data: { tier: i % 2 ? 'Gold' : 'Silver', notes: `note ${i}` },
  }));
  expect((await app.api(k, 'POST', '/api/v1/records/batch', { items })).status).toBe(200);
  // Production's own integrations, which a sandbox must never reach.
  const hook = await app.api(k, 'POST', '/api/v1/webhooks', {
    url: `${receiver.url}/production`,
    events: ['record.created'],
    headers: { Authorization: 'Bearer production-token' },
  });
  expect(hook.status).toBe(201);
  const workflow = await app.api(k, 'POST', '/api/v1/workflows', {
    name: 'Tell the ERP',
    trigger: { type: 'record.created' },
    actions: [{ type: 'HTTP_REQUEST', url: `${receiver.url}/erp`, body: { id: '{{ record.id }}' } }],
  });
  expect(workflow.status).toBe(201);
  // The records above were made before the subscription and the workflow: nothing was sent.
  receiver.requests.length = 0;
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
});

describe('sandboxes', () => {
  it('copy the configuration and sample records, capture what they may not send, and go when deleted', async () => {
    const made = await app.api(source.apiKey, 'POST', '/api/v1/sandboxes', {
      name: 'Try-outs',
      sampleRecords: 20,
      allowUrls: [`${receiver.url}/sandbox`],
    });
    expect(made.status).toBe(201);
    const sandbox = made.body.data;
    expect(sandbox.apiKey).toMatch(/^crm_test_[0-9A-Za-z]{43}$/);
    expect(sandbox).toMatchObject({
      name: 'Try-outs',
      sourceWorkspaceId: source.workspaceId,
      allowUrls: [`${receiver.url}/sandbox`],
      copied: { folders: 2, pipelines: 1, workflows: 1, webhooks: 1, views: 0, records: 20 },
    });
    const listed = await app.api(source.apiKey, 'GET', '/api/v1/sandboxes');
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([sandbox.id]);

    // The same configuration, webhook header values included (masked alike in both).
    const key = sandbox.apiKey as string;
    const [mine, theirs] = await Promise.all([
      app.api(source.apiKey, 'GET', '/api/v1/config'),
      app.api(key, 'GET', '/api/v1/config'),
    ]);
    expect(canonicalJson(theirs.body.data)).toBe(canonicalJson(mine.body.data));
    const me = await app.api(key, 'GET', '/api/v1/me');
    expect(me.body.data.workspace.id).toBe(sandbox.id);
    const folders = await app.api(key, 'GET', '/api/v1/folders');
    const copy = folders.body.data.find((f: { name: string }) => f.name === 'Companies');
    const records = await app.api(key, 'GET', `/api/v1/records?folderId=${copy.id}&count=true&pageSize=50`);
    expect(records.body.meta.total).toBe(20);
    const titles = new Set(records.body.data.map((r: { title: string }) => r.title));
    expect(titles.size).toBe(20);
    for (const title of titles) expect(title).toMatch(/^Company \d+$/);
    expect(records.body.data[0].data).toEqual({
      tier: expect.any(String),
      notes: expect.stringMatching(/^note /),
    });

    // A record made in the sandbox: its webhook and its workflow's request are captured.
    const created = await app.api(key, 'POST', '/api/v1/records', { folderId: copy.id, title: 'Sandbox Co' });
    expect(created.status).toBe(201);
    const hooks = await app.api(key, 'GET', '/api/v1/webhooks');
    const hookId = hooks.body.data[0].id;
    const delivery = await eventually(async () => {
      const list = await app.api(key, 'GET', `/api/v1/webhooks/${hookId}/deliveries`);
      const first = list.body.data[0];
      return first?.status === 'CAPTURED' ? first : undefined;
    });
    expect(delivery.body).toMatchObject({
      event: 'record.created',
      record: { id: created.body.data.id, title: 'Sandbox Co' },
    });
    expect(delivery.attempts[0].error).toMatch(/^captured, not sent/);
    const workflows = await app.api(key, 'GET', '/api/v1/workflows');
    const run = await eventually(async () => {
      const runs = await app.api(key, 'GET', `/api/v1/workflows/${workflows.body.data[0].id}/runs`);
      const first = runs.body.data[0];
      return first?.status === 'SUCCEEDED' ? first : undefined;
    });
    const detail = await app.api(key, 'GET', `/api/v1/runs/${run.id}`);
    expect(detail.body.data.steps[0].output).toMatchObject({ captured: true });
    expect(detail.body.data.steps[0].input).toMatchObject({ url: `${receiver.url}/erp` });

    // A URL on the allow list is sent to.
    const allowed = await app.api(key, 'POST', '/api/v1/webhooks', {
      url: `${receiver.url}/sandbox/hook`,
      events: ['record.created'],
    });
    expect(allowed.status).toBe(201);
    await app.api(key, 'POST', '/api/v1/records', { folderId: copy.id, title: 'Sent' });
    await receiver.waitFor(1, 15_000, '/sandbox/hook');
    // Nothing the sandbox did reached production's URLs.
    expect(receiver.requests.filter((r) => r.path === '/production' || r.path === '/erp')).toEqual([]);

    // Deleting the sandbox removes its data and its keys at once.
    const gone = await app.api(source.apiKey, 'DELETE', `/api/v1/sandboxes/${sandbox.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ id: sandbox.id, deleted: true });
    expect((await app.api(key, 'GET', '/api/v1/me')).status).toBe(401);
    expect((await app.api(source.apiKey, 'GET', '/api/v1/sandboxes')).body.data).toEqual([]);
    const left = await app.service.pool.query(
      `select (select count(*) from records where workspace_id = $1)::int as records,
              (select count(*) from api_keys where workspace_id = $1)::int as keys,
              (select count(*) from workspaces where id = $1)::int as workspaces`,
      [sandbox.id],
    );
    expect(left.rows[0]).toEqual({ records: 0, keys: 0, workspaces: 0 });
    // The workspace it was made from is as it was.
    expect(
      (await app.api(source.apiKey, 'GET', `/api/v1/records?folderId=${companiesId}&count=true`)).body.meta
        .total,
    ).toBe(30);
  });

  it('refuses what it cannot do, naming it', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x', copy: ['workflows'] }, 'copy'],
      [{ name: 'x', sampleRecords: 10_001 }, 'sampleRecords'],
      [{ name: 'x', allowUrls: ['ftp://files.example.com'] }, 'allowUrls.0'],
      [{ name: '' }, 'name'],
    ];
    for (const [body, path] of cases) {
      const answer = await app.api(source.apiKey, 'POST', '/api/v1/sandboxes', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await app.api(source.apiKey, 'DELETE', `/api/v1/sandboxes/${source.workspaceId}`)).status).toBe(
      404,
    );
    // A sandbox's own key cannot make sandboxes of it.
    const made = await app.api(source.apiKey, 'POST', '/api/v1/sandboxes', { name: 'Nested?' });
    expect(made.status).toBe(201);
    const nested = await app.api(made.body.data.apiKey, 'POST', '/api/v1/sandboxes', { name: 'Deeper' });
    expect(nested.status).toBe(400);
    expect(nested.body.error.message).toMatch(/is a sandbox/);
    expect((await app.api(source.apiKey, 'DELETE', `/api/v1/sandboxes/${made.body.data.id}`)).status).toBe(
      200,
    );
  });
});
