import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp({
    worker: true,
    env: { WORKER_POLL_INTERVAL_MS: '50', WORKFLOW_RETRY_SCALE: '0.001' },
  });
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

const webhookTrigger = { type: 'INCOMING_WEBHOOK' };
const saveWorkflow = (actions: unknown[], extra: Record<string, unknown> = {}) =>
  app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
    name: 'Flow',
    trigger: webhookTrigger,
    actions,
    ...extra,
  });

async function finishedRun(runId: string) {
  return eventually(async () => {
    const res = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runId}`);
    const status = res.body.data?.status;
    return status === 'SUCCEEDED' || status === 'FAILED' ? res.body.data : undefined;
  }, 20_000);
}

describe('saving a workflow checks every action', () => {
  const cases: [string, unknown, string][] = [
    ['an unknown action type', { type: 'SEND_FAX' }, 'actions.0.type'],
    ['a missing required parameter', { type: 'CREATE_RECORD', title: 'X' }, 'actions.0.folderId'],
    ['an unknown parameter', { type: 'ADD_COMMENT', text: 'X', colour: 'red' }, 'actions.0.colour'],
    ['a value outside its set', { type: 'CREATE_TASK', title: 'X', priority: 'SOON' }, 'actions.0.priority'],
    ['a template of an unknown root', { type: 'ADD_COMMENT', text: '{{ secrets.key }}' }, 'actions.0.text'],
    ['an unbalanced template', { type: 'ADD_COMMENT', text: 'Hi {{ trigger.body.name' }, 'actions.0.text'],
    [
      'a template reading a later step',
      { type: 'ADD_COMMENT', text: '{{ steps.1.output.id }}' },
      'actions.0.text',
    ],
    ['a template with code in it', { type: 'ADD_COMMENT', text: '{{ process.exit() }}' }, 'actions.0.text'],
    [
      'a [[ ]] template of an unknown root',
      { type: 'ADD_COMMENT', text: '[[ secrets.key ]]' },
      'actions.0.text',
    ],
    [
      'an unbalanced [[ ]] template',
      { type: 'ADD_COMMENT', text: 'Hi [[ trigger.body.name' },
      'actions.0.text',
    ],
    ['an empty [[ ]] template', { type: 'CREATE_TASK', title: 'Call [[ ]]' }, 'actions.0.title'],
    [
      'a [[ ]] template reading a later step',
      { type: 'ADD_COMMENT', text: '[[ steps.1.output.id ]]' },
      'actions.0.text',
    ],
    [
      'a [[ ]] template of an unknown root deep in an HTTP body',
      { type: 'HTTP_REQUEST', url: 'http://127.0.0.1/x', body: { lead: { email: '[[ env.EMAIL ]]' } } },
      'actions.0.body.lead.email',
    ],
    [
      'a [[ ]] amount naming no value',
      { type: 'CREATE_DEAL', pipelineId: 'pl_x', amount: '[[ amount ]]' },
      'actions.0.amount',
    ],
    ['a CONDITION without its right side', { type: 'CONDITION', left: 1, operator: 'EQUALS' }, 'actions.0'],
    [
      'an HTTP_REQUEST to a private address',
      { type: 'HTTP_REQUEST', url: 'http://10.1.2.3/x' },
      'actions.0.url',
    ],
    [
      'an HTTP_REQUEST that is not http',
      { type: 'HTTP_REQUEST', url: 'file:///etc/passwd' },
      'actions.0.url',
    ],
    [
      'a GET with a body',
      { type: 'HTTP_REQUEST', method: 'GET', url: 'http://127.0.0.1/x', body: {} },
      'actions.0',
    ],
    [
      'an amount that is not a number',
      { type: 'CREATE_DEAL', pipelineId: 'pl_x', amount: 'lots' },
      'actions.0.amount',
    ],
  ];
  for (const [what, action, path] of cases) {
    it(`refuses ${what} with a 400 naming ${path}`, async () => {
      const res = await saveWorkflow([action]);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    });
  }

  it('names the path and the [[ ]] template in the 400, on create and on update alike', async () => {
    const bad = [
      { type: 'ADD_COMMENT', text: 'ok [[ trigger.body.name ]]' },
      { type: 'ADD_COMMENT', text: 'Deal [[ steps.1.output.id ]], [[ env.KEY ]]' },
    ];
    const expected = [
      {
        path: 'actions.1.text',
        message: '[[ steps.1.output.id ]] names step 1, which does not run before this one',
      },
      {
        path: 'actions.1.text',
        message: '[[ env.KEY ]] must start with trigger, record, steps, item or loop',
      },
    ];
    const created = await saveWorkflow(bad);
    expect(created.status).toBe(400);
    expect(created.body.error.details).toEqual(expected);
    const good = await saveWorkflow([{ type: 'ADD_COMMENT', text: '[[ trigger.body.name ]]' }]);
    expect(good.status).toBe(201);
    const updated = await app.api(ws.apiKey, 'PATCH', `/api/v1/workflows/${good.body.data.id}`, {
      actions: bad,
    });
    expect(updated.status).toBe(400);
    expect(updated.body.error.details).toEqual(expected);
    await app.api(ws.apiKey, 'DELETE', `/api/v1/workflows/${good.body.data.id}`);
  });

  it('refuses an empty action list, more than 50 actions (nested ones counted) and an unknown trigger', async () => {
    expect((await saveWorkflow([])).status).toBe(400);
    const many = Array.from({ length: 51 }, () => ({ type: 'ADD_COMMENT', text: 'x' }));
    expect((await saveWorkflow(many)).status).toBe(400);
    const nested = [
      {
        type: 'BRANCH',
        if: { left: 1, operator: 'EQUALS', right: 1 },
        then: Array.from({ length: 25 }, () => ({ type: 'ADD_COMMENT', text: 'x' })),
        else: Array.from({ length: 25 }, () => ({ type: 'ADD_COMMENT', text: 'x' })),
      },
    ];
    const tooMany = await saveWorkflow(nested);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0]).toMatchObject({
      path: 'actions',
      message: 'must hold at most 50 actions, counting those inside branches and loops (holds 51)',
    });
    const res = await saveWorkflow([{ type: 'ADD_COMMENT', text: 'x' }], {
      trigger: { type: 'EMAIL_RECEIVED' },
    });
    expect(res.body.error.details[0].path).toBe('trigger.type');
    const list = await app.api(ws.apiKey, 'GET', '/api/v1/workflows');
    expect(list.body.data).toEqual([]);
  });
});

describe('workflows over the API, with the worker', () => {
  it('runs the lead-intake flow posted to its URL and shows the run with every step', async () => {
    const pipeline = (await app.api(ws.apiKey, 'GET', '/api/v1/pipelines')).body.data[0];
    const saved = await saveWorkflow([
      {
        type: 'CREATE_RECORD',
        folderId: ws.folderId,
        title: '{{ trigger.body.name }}',
        email: '{{ trigger.body.email }}',
        upsertBy: 'email',
      },
      { type: 'ASSIGN_OWNER', ownerId: ws.userId },
      { type: 'CREATE_TASK', title: 'Call {{ record.title }}', dueInDays: 1 },
      { type: 'CREATE_DEAL', pipelineId: pipeline.id, title: 'Lead: {{ record.title }}' },
      { type: 'HTTP_REQUEST', url: `${receiver.url}/crm-sync`, body: { lead: '{{ record.id }}' } },
    ]);
    expect(saved.status).toBe(201);
    const accepted = await fetch(saved.body.data.trigger.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Katherine Johnson', email: 'kj@example.com' }),
    });
    expect(accepted.status).toBe(200);
    const { runId } = (await accepted.json()) as { runId: string };
    const run = await finishedRun(runId);
    expect(run.status).toBe('SUCCEEDED');
    expect(run.steps.map((s: { status: string }) => s.status)).toEqual(Array(5).fill('SUCCEEDED'));
    const recordId = run.steps[0].output.id;

    const record = await app.api(ws.apiKey, 'GET', `/api/v1/records/${recordId}`);
    expect(record.body.data).toMatchObject({ title: 'Katherine Johnson', ownerId: ws.userId });
    const tasks = await app.api(ws.apiKey, 'GET', `/api/v1/tasks?recordId=${recordId}`);
    expect(tasks.body.data.map((t: { title: string }) => t.title)).toEqual(['Call Katherine Johnson']);
    const deals = await app.api(ws.apiKey, 'GET', `/api/v1/deals?pipelineId=${pipeline.id}`);
    expect(deals.body.data.find((d: { recordId: string }) => d.recordId === recordId)).toMatchObject({
      stageId: pipeline.stages[0].id,
    });
    expect(receiver.requests.map((r) => [r.path, JSON.parse(r.body.toString())])).toEqual([
      ['/crm-sync', { lead: recordId }],
    ]);
    const history = await app.api(ws.apiKey, 'GET', `/api/v1/workflows/${saved.body.data.id}/runs`);
    expect(history.body.data.map((r: { id: string }) => r.id)).toEqual([runId]);
    expect(history.body.meta).toMatchObject({ page: 1, hasMore: false });
  });

  it('runs a flow written with [[ ]] templates, mixed with {{ }}, posted to its URL', async () => {
    const saved = await saveWorkflow([
      {
        type: 'CREATE_RECORD',
        folderId: ws.folderId,
        title: '[[ trigger.body.name ]]',
        email: '[[trigger.body.contact.email]]',
      },
      { type: 'CREATE_TASK', title: 'Call [[ record.title ]] about {{ trigger.body.items.0.sku }}' },
      { type: 'CONDITION', left: '[[ trigger.body.score ]]', operator: 'GREATER_THAN', right: 10 },
      {
        type: 'HTTP_REQUEST',
        url: `${receiver.url}/lead-sync`,
        headers: { 'X-Lead': '[[   steps.0.output.id   ]]' },
        body: {
          name: '[[ record.title ]]',
          score: '[[ trigger.body.score ]]',
          items: '[[ trigger.body.items ]]',
          line: '[[ trigger.body.name ]] <{{ record.email }}> scored [[ trigger.body.score ]]',
          missing: '[[ trigger.body.nothing ]]',
        },
      },
    ]);
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.data.actions[0].title).toBe('[[ trigger.body.name ]]');
    const items = [{ sku: 'SKU-7', qty: 2 }];
    const accepted = await fetch(saved.body.data.trigger.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Mary Jackson', contact: { email: 'mj@example.com' }, score: 42, items }),
    });
    expect(accepted.status).toBe(200);
    const { runId } = (await accepted.json()) as { runId: string };
    const run = await finishedRun(runId);
    expect(run.status, run.error).toBe('SUCCEEDED');
    const recordId = run.steps[0].output.id;
    expect(run.steps[0].input).toMatchObject({ title: 'Mary Jackson', email: 'mj@example.com' });
    expect(run.steps[2].output).toEqual({ passed: true });

    const record = await app.api(ws.apiKey, 'GET', `/api/v1/records/${recordId}`);
    expect(record.body.data).toMatchObject({ title: 'Mary Jackson', email: 'mj@example.com' });
    const tasks = await app.api(ws.apiKey, 'GET', `/api/v1/tasks?recordId=${recordId}`);
    expect(tasks.body.data.map((t: { title: string }) => t.title)).toEqual(['Call Mary Jackson about SKU-7']);
    const sent = receiver.requests.filter((r) => r.path === '/lead-sync');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-lead']).toBe(recordId);
    expect(JSON.parse(sent[0]!.body.toString())).toEqual({
      name: 'Mary Jackson',
      score: 42,
      items,
      line: 'Mary Jackson <mj@example.com> scored 42',
      missing: null,
    });
  });

  it('runs a workflow on an event kind, and the tRPC surface shows the same runs as REST', async () => {
    const trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) }),
      ],
    });
    const created = await trpc.workflows.create.mutate({
      name: 'Welcome new people',
      trigger: { type: 'record.created' },
      actions: [{ type: 'ADD_COMMENT', text: 'Welcome, {{ record.title }} ({{ trigger.body.event }})' }],
    });
    expect(created.data.trigger).toEqual({
      type: 'record.created',
      url: null,
      cron: null,
      timezone: null,
      nextRunAt: null,
    });
    const record = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'Dorothy',
    });
    const runs = await eventually(async () => {
      const page = await trpc.workflows.runs.query({ id: created.data.id });
      return page.data.length > 0 && page.data[0]!.status === 'SUCCEEDED' ? page : undefined;
    }, 20_000);
    expect(runs.data[0]).toMatchObject({ trigger: 'EVENT', recordId: record.body.data.id });
    const viaRest = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runs.data[0]!.id}`);
    expect(viaRest.body).toEqual(await trpc.runs.get.query({ id: runs.data[0]!.id }));
    const comments = await app.api(ws.apiKey, 'GET', `/api/v1/records/${record.body.data.id}/comments`);
    expect(comments.body.data.map((c: { text: string }) => c.text)).toEqual([
      'Welcome, Dorothy (record.created)',
    ]);
    await trpc.workflows.disable.mutate({ id: created.data.id });
  });

  it('retries a failing call, fails the run with the reason after 5 attempts, and re-runs it by hand', async () => {
    const saved = await saveWorkflow([{ type: 'HTTP_REQUEST', url: `${receiver.url}/flaky` }]);
    receiver.reply(
      { status: 500 },
      { status: 500 },
      { status: 502 },
      { status: 503 },
      { status: 500, body: 'down' },
    );
    const before = receiver.requests.length;
    const accepted = await fetch(saved.body.data.trigger.url, { method: 'POST' });
    expect(accepted.status).toBe(200);
    const { runId } = (await accepted.json()) as { runId: string };
    const failed = await finishedRun(runId);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/failed after 5 attempts: POST 127\.0\.0\.1:\d+ answered 500: down$/);
    expect(receiver.requests.length - before).toBe(5);

    const rerun = await app.api(ws.apiKey, 'POST', `/api/v1/runs/${runId}/rerun`);
    expect(rerun.status).toBe(201);
    expect(rerun.body.data).toMatchObject({ rerunOf: runId, trigger: 'RERUN', status: 'QUEUED' });
    const second = await finishedRun(rerun.body.data.id);
    expect(second.status).toBe('SUCCEEDED');
  });
});
