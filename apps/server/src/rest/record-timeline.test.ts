import type { AppRouter } from '@crm/api';
import { parseAllowList } from '@crm/webhooks';
import { executeRun } from '@crm/workflows';
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
  other = await app.createWorkspace();
});
afterAll(() => app?.stop());

async function ok(method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200) {
  const res = await app.api(ws.apiKey, method, `/api/v1${path}`, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  return res.body.data;
}

const timeline = (id: string, query = '', key = ws.apiKey) =>
  app.api(key, 'GET', `/api/v1/records/${id}/timeline${query}`);

async function newRecord(title: string, extra: Record<string, unknown> = {}) {
  return (await ok('POST', '/records', { folderId: ws.folderId, title, ...extra })) as { id: string };
}

/** Runs a queued run to its end, as the worker's job would. */
const run = (runId: string) =>
  executeRun(
    app.service.db,
    { id: runId },
    { http: { allow: parseAllowList(undefined) }, retry: { scale: 0.001, jitter: 0 } },
  );

async function trigger(url: string, body: unknown): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { runId: string }).runId;
}

describe('GET /records/{id}/timeline', () => {
  it('lists every kind of entry, newest first, each with its details', async () => {
    const record = await newRecord('Ada', { email: 'a@x.test', data: { lifecycle: 'Lead' } });
    const at = (await ok('GET', `/records/${record.id}`)).createdAt;
    await ok('PATCH', `/records/${record.id}`, {
      email: 'b@x.test',
      phone: '+1 555 0100',
      data: { lifecycle: 'Customer', company: 'Acme' },
    });
    const comment = await ok('POST', `/records/${record.id}/comments`, { text: 'Met at the fair' });
    const call = await ok('POST', `/records/${record.id}/calls`, {
      direction: 'INBOUND',
      outcome: 'VOICEMAIL',
      duration: 95,
      notes: 'Left a message',
      calledAt: '2026-11-20T10:00:00Z',
    });
    const task = await ok('POST', '/tasks', { title: 'Send the offer', recordId: record.id });
    await ok('PATCH', `/tasks/${task.id}`, { title: 'Send the final offer', status: 'DONE' });
    const pipeline = (await ok('GET', '/pipelines'))[0];
    const [lead, qualified] = pipeline.stages;
    const deal = await ok('POST', '/deals', {
      pipelineId: pipeline.id,
      title: 'Big one',
      recordId: record.id,
    });
    expect(deal.stageId).toBe(lead.id);
    await ok('PATCH', `/deals/${deal.id}`, { stageId: qualified.id });
    await ok('DELETE', `/records/${record.id}`);
    await ok('POST', `/records/${record.id}/restore`, undefined, 200);
    const workflow = await ok('POST', '/workflows', {
      name: 'Mark as customer',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'UPDATE_RECORD', title: 'Ada Lovelace' }],
    });
    const runId = await trigger(workflow.trigger.url, { recordId: record.id });
    await run(runId);

    const res = await timeline(record.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBeNull();
    expect(res.headers.get('etag')).toBeNull();
    expect(res.body.meta).toEqual({ page: 1, pageSize: 50, hasMore: false, nextCursor: null, nextUrl: null });
    const entries = res.body.data;
    const none = {
      actor: null,
      by: null,
      changes: null,
      comment: null,
      call: null,
      task: null,
      deal: null,
      run: null,
      link: null,
    };
    const instant = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Who made each change (docs/api.md, "History and provenance"): the key, over REST, in its
    // request; the run of the workflow, with the step that made it (`<runId>:<path>`).
    const byKey = {
      actor: { type: 'apiKey', id: expect.stringMatching(/^key_/), name: 'test' },
      source: 'rest',
      requestId: expect.any(String),
    };
    expect(entries).toEqual([
      {
        ...none,
        id: expect.stringMatching(/^evt_/),
        at: instant,
        kind: 'record.updated',
        by: {
          actor: { type: 'workflow', id: runId, name: 'Mark as customer' },
          source: 'workflow',
          requestId: `${runId}:0`,
        },
        changes: [{ field: 'title', from: 'Ada', to: 'Ada Lovelace' }],
      },
      {
        ...none,
        id: runId,
        at: instant,
        kind: 'workflow.run',
        run: {
          id: runId,
          workflowId: workflow.id,
          workflowName: 'Mark as customer',
          status: 'SUCCEEDED',
          error: null,
        },
      },
      { ...none, id: expect.stringMatching(/^evt_/), at: instant, kind: 'record.restored', by: byKey },
      { ...none, id: expect.stringMatching(/^evt_/), at: instant, kind: 'record.trashed', by: byKey },
      {
        ...none,
        id: expect.stringMatching(/^evt_/),
        at: instant,
        kind: 'deal.stage_changed',
        by: byKey,
        deal: {
          id: deal.id,
          title: 'Big one',
          pipelineId: pipeline.id,
          from: { id: lead.id, name: 'Lead' },
          to: { id: qualified.id, name: 'Qualified' },
        },
      },
      {
        ...none,
        id: expect.stringMatching(/^evt_/),
        at: instant,
        kind: 'task.completed',
        by: byKey,
        task: { id: task.id, title: 'Send the final offer' },
      },
      {
        ...none,
        id: expect.stringMatching(/^evt_/),
        at: instant,
        kind: 'task.created',
        by: byKey,
        task: { id: task.id, title: 'Send the offer' },
      },
      {
        ...none,
        id: call.id,
        at: call.createdAt,
        kind: 'call.logged',
        actor: { userId: ws.userId, name: expect.any(String) },
        call: {
          id: call.id,
          direction: 'INBOUND',
          outcome: 'VOICEMAIL',
          duration: 95,
          notes: 'Left a message',
          calledAt: '2026-11-20T10:00:00.000Z',
        },
      },
      {
        ...none,
        id: comment.id,
        at: comment.createdAt,
        kind: 'comment.added',
        actor: { userId: ws.userId, name: comment.author },
        comment: { id: comment.id, text: 'Met at the fair' },
      },
      {
        ...none,
        id: expect.stringMatching(/^evt_/),
        at: instant,
        kind: 'record.updated',
        by: byKey,
        changes: expect.arrayContaining([
          { field: 'email', from: 'a@x.test', to: 'b@x.test' },
          { field: 'phone', from: null, to: '+1 555 0100' },
          { field: 'data.lifecycle', from: 'Lead', to: 'Customer' },
          { field: 'data.company', from: null, to: 'Acme' },
        ]),
      },
      { ...none, id: record.id, at, kind: 'record.created' },
    ]);
    expect(entries[entries.length - 2].changes).toHaveLength(4);
    const times = entries.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);

    // The same over tRPC.
    const trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) }),
      ],
    });
    expect(await trpc.records.timeline.query({ id: record.id })).toEqual(res.body);
  });

  it('shows a failed run with its error, and a removed field as changed to null', async () => {
    const record = await newRecord('Grace', { data: { company: 'Navy' } });
    await ok('PATCH', `/records/${record.id}`, { data: { company: null } });
    const workflow = await ok('POST', '/workflows', {
      name: 'Broken',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'UPDATE_RECORD', email: 'not an email' }],
    });
    const runId = await trigger(workflow.trigger.url, { recordId: record.id });
    const queued = (await timeline(record.id)).body.data[0];
    expect(queued).toMatchObject({ kind: 'workflow.run', run: { id: runId, status: 'QUEUED', error: null } });
    await run(runId);
    const entries = (await timeline(record.id)).body.data;
    expect(entries.map((e: { kind: string }) => e.kind)).toEqual([
      'workflow.run',
      'record.updated',
      'record.created',
    ]);
    expect(entries[0].run).toMatchObject({ status: 'FAILED', error: expect.stringContaining('email') });
    expect(entries[1].changes).toEqual([{ field: 'data.company', from: 'Navy', to: null }]);
  });

  it('pages by cursor and by page, with Link to the next page', async () => {
    const record = await newRecord('Paged');
    for (let i = 1; i <= 7; i++) await ok('POST', `/records/${record.id}/comments`, { text: `Note ${i}` });
    const all = (await timeline(record.id)).body.data.map((e: { id: string }) => e.id);
    expect(all).toHaveLength(8);

    const seen: string[] = [];
    let query = '?pageSize=3';
    for (let pages = 0; pages < 10; pages++) {
      const res = await timeline(record.id, query);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: { id: string }) => e.id));
      if (!res.body.meta.hasMore) {
        expect(res.body.meta.nextCursor).toBeNull();
        expect(res.headers.get('link')).toBeNull();
        break;
      }
      expect(res.body.meta.page).toBe(pages === 0 ? 1 : null);
      const next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1];
      expect(next).toBeDefined();
      const url = new URL(next!);
      expect(url.pathname).toBe(`/api/v1/records/${record.id}/timeline`);
      expect(url.searchParams.get('cursor')).toBe(res.body.meta.nextCursor);
      query = url.search;
    }
    expect(seen).toEqual(all);

    const second = await timeline(record.id, '?pageSize=3&page=2');
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual(all.slice(3, 6));
    expect(second.body.meta).toMatchObject({ page: 2, hasMore: true });
    const last = await timeline(record.id, '?pageSize=3&page=3');
    expect(last.body.data.map((e: { id: string }) => e.id)).toEqual(all.slice(6));
    expect(last.body.meta).toMatchObject({ page: 3, hasMore: false, nextCursor: null, nextUrl: null });

    // A cursor is stable when entries are added meanwhile: the walk goes on where it was.
    const first = await timeline(record.id, '?pageSize=4');
    await ok('POST', `/records/${record.id}/comments`, { text: 'Newer' });
    const rest = await timeline(record.id, `?pageSize=4&cursor=${first.body.meta.nextCursor}`);
    expect(rest.body.data.map((e: { id: string }) => e.id)).toEqual(all.slice(4));
    // An empty cursor is the first page.
    const fresh = await timeline(record.id, '?cursor=&pageSize=1');
    expect(fresh.body.data[0]).toMatchObject({ kind: 'comment.added', comment: { text: 'Newer' } });
  });

  it('is a 404 for an unknown, malformed, trashed or other workspace record', async () => {
    const record = await newRecord('Hidden');
    for (const id of ['rec_01jq3v6f6ve7s9t8m1k2c3d4e5', 'rec_x', 'deal_01jq3v6f6ve7s9t8m1k2c3d4e5']) {
      const res = await timeline(id);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const theirs = await timeline(record.id, '', other.apiKey);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toMatchObject({ code: 'NOT_FOUND', requestId: expect.any(String) });

    await ok('DELETE', `/records/${record.id}`);
    expect((await timeline(record.id)).status).toBe(404);
    await ok('POST', `/records/${record.id}/restore`, undefined, 200);
    const back = (await timeline(record.id)).body.data.map((e: { kind: string }) => e.kind);
    expect(back).toEqual(['record.restored', 'record.trashed', 'record.created']);
  });

  it("never shows another workspace's rows, even ones naming the record", async () => {
    const record = await newRecord('Mine');
    // An event of another workspace about the same record id (only a forged row could be).
    await app.service.db.execute(sql`
      insert into events (workspace_id, id, type, payload, occurred_at)
      values (${other.workspaceId}, 'evt_forged', 'record.trashed',
              ${JSON.stringify({ recordId: record.id })}::jsonb, now())`);
    const entries = (await timeline(record.id)).body.data;
    expect(entries.map((e: { kind: string }) => e.kind)).toEqual(['record.created']);
  });

  it('refuses bad paging input with a 400 naming it', async () => {
    const record = await newRecord('Strict');
    const cases: [string, string][] = [
      ['?pageSize=0', 'pageSize'],
      ['?pageSize=201', 'pageSize'],
      ['?pageSize=abc', 'pageSize'],
      ['?page=0', 'page'],
      ['?cursor=nonsense', 'cursor'],
      ['?page=2&cursor=WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLCJ4Il0', 'page'],
      ['?sort=at', 'sort'],
    ];
    for (const [query, path] of cases) {
      const res = await timeline(record.id, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error), query).toContain(path);
    }
  });
});
