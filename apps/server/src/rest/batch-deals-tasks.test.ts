import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  other = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
});
afterAll(() => app?.stop());

async function query<Row = Record<string, unknown>>(text: string, params: unknown[] = []) {
  return (await app.service.db.$client.query(text, params)).rows as Row[];
}

const eventTypes = async (workspaceId: string) =>
  (
    await query<{ type: string }>(
      'select type from events where workspace_id = $1 order by occurred_at, id',
      [workspaceId],
    )
  ).map((e) => e.type);

async function created(w: TestWorkspace, path: string, body: Record<string, unknown>) {
  const res = await app.api(w.apiKey, 'POST', `/api/v1${path}`, body);
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function sales(w: TestWorkspace) {
  const res = await app.api(w.apiKey, 'GET', '/api/v1/pipelines');
  const pipeline = res.body.data[0] as { id: string; stages: { id: string }[] };
  return { id: pipeline.id, stages: pipeline.stages.map((s) => s.id) };
}

const statuses = (res: { body: { data: { status: number }[] } }) => res.body.data.map((d) => d.status);
const MISSING_DEAL = 'deal_01jq3v6f6ve7s9t8m1k2c3d4e5';
const MISSING_TASK = 'task_01jq3v6f6ve7s9t8m1k2c3d4e5';

describe('deal batches', () => {
  it('creates the valid deals with their events and answers each invalid item as POST /deals would', async () => {
    const pipeline = await sales(ws);
    const theirs = await sales(other);
    const record = await created(ws, '/records', { folderId: ws.folderId, title: 'Buyer' });
    const foreignRecord = await created(other, '/records', {
      folderId: other.folderId,
      title: 'Their buyer',
    });
    const items = [
      { pipelineId: pipeline.id, title: 'Plain', amount: 1250.5 },
      { pipelineId: pipeline.id, title: 'Too precise', amount: 1.234 },
      { pipelineId: pipeline.id, title: 'Linked', stageId: pipeline.stages[2], recordId: record.id },
      { pipelineId: pipeline.id, title: 'Foreign stage', stageId: theirs.stages[0] },
      { pipelineId: theirs.id, title: 'Foreign pipeline' },
      { pipelineId: pipeline.id, title: 'Foreign record', recordId: foreignRecord.id },
    ];
    const res = await app.api(ws.apiKey, 'POST', '/api/v1/deals/batch', { items });
    expect(res.status, res.text).toBe(200);
    expect(statuses(res)).toEqual([201, 400, 201, 400, 400, 400]);
    expect(res.body.meta).toEqual({ succeeded: 2, failed: 4 });
    expect(res.body.data[2].data).toMatchObject({ stageId: pipeline.stages[2], recordId: record.id });
    const paths = res.body.data.map(
      (d: { error?: { details: { path: string }[] } }) => d.error?.details[0]?.path,
    );
    expect(paths).toEqual([undefined, 'amount', undefined, 'stageId', 'pipelineId', 'recordId']);
    for (const i of [1, 3, 4, 5]) {
      const single = await app.api(ws.apiKey, 'POST', '/api/v1/deals', items[i]);
      expect(res.body.data[i].error.details).toEqual(single.body.error.details);
    }
    const deals = await query<{ title: string }>(
      'select title from deals where workspace_id = $1 order by id',
      [ws.workspaceId],
    );
    expect(deals.map((d) => d.title)).toEqual(['Plain', 'Linked']);
    expect((await eventTypes(ws.workspaceId)).filter((t) => t.startsWith('deal.'))).toEqual([
      'deal.created',
      'deal.created',
    ]);
    expect(await query('select id from deals where workspace_id = $1', [other.workspaceId])).toEqual([]);
  });

  it('patches and deletes deals item by item; an id of another workspace is a 404 and stays untouched', async () => {
    const pipeline = await sales(ws);
    const theirs = await sales(other);
    const mine = await created(ws, '/deals', { pipelineId: pipeline.id, title: 'Mine' });
    const second = await created(ws, '/deals', { pipelineId: pipeline.id, title: 'Second' });
    const foreign = await created(other, '/deals', { pipelineId: theirs.id, title: 'Theirs' });
    const before = await eventTypes(other.workspaceId);
    const patched = await app.api(ws.apiKey, 'PATCH', '/api/v1/deals/batch', {
      items: [
        { id: mine.id, stageId: pipeline.stages[1], amount: 99 },
        { id: foreign.id, title: 'Taken over' },
        { id: second.id, amount: -1 },
        { id: MISSING_DEAL, title: 'Nobody' },
        { id: second.id, stageId: theirs.stages[1] },
      ],
    });
    expect(patched.status, patched.text).toBe(200);
    expect(statuses(patched)).toEqual([200, 404, 400, 404, 400]);
    expect(patched.body.data[0].data).toMatchObject({ id: mine.id, stageId: pipeline.stages[1], amount: 99 });
    expect(patched.body.data[1].error.code).toBe('NOT_FOUND');
    const stageMoves = await query<{ payload: { dealId: string; fromStageId: string; toStageId: string } }>(
      "select payload from events where workspace_id = $1 and type = 'deal.stage_changed'",
      [ws.workspaceId],
    );
    expect(stageMoves.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        dealId: mine.id,
        fromStageId: pipeline.stages[0],
        toStageId: pipeline.stages[1],
      }),
    ]);

    const deleted = await app.api(ws.apiKey, 'POST', '/api/v1/deals/batch/delete', {
      ids: [mine.id, foreign.id, mine.id, 'not-a-deal'],
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data).toEqual([
      { index: 0, status: 200, data: { id: mine.id, deleted: true } },
      expect.objectContaining({ index: 1, status: 404 }),
      expect.objectContaining({ index: 2, status: 404 }),
      expect.objectContaining({ index: 3, status: 404 }),
    ]);
    expect(deleted.body.meta).toEqual({ succeeded: 1, failed: 3 });
    const theirsNow = await app.api(other.apiKey, 'GET', `/api/v1/deals/${foreign.id}`);
    expect(theirsNow.body.data).toEqual(foreign);
    expect(await eventTypes(other.workspaceId)).toEqual(before);
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/deals/${second.id}`)).body.data).toEqual(second);
  });
});

describe('task batches', () => {
  it('creates, patches and deletes tasks item by item, refusing other workspaces’ ids and invalid items', async () => {
    const record = await created(ws, '/records', { folderId: ws.folderId, title: 'Caller' });
    const foreignRecord = await created(other, '/records', {
      folderId: other.folderId,
      title: 'Their caller',
    });
    const create = await app.api(ws.apiKey, 'POST', '/api/v1/tasks/batch', {
      items: [
        { title: 'Call back', recordId: record.id, dueAt: '2026-12-01T09:30:00+01:00', recurrence: 'WEEKLY' },
        { title: 'Assigned elsewhere', assigneeId: other.userId },
        { title: 'Foreign record', recordId: foreignRecord.id },
        { dueAt: 'tomorrow' },
        { title: 'Mine', assigneeId: ws.userId, priority: 'HIGH' },
      ],
    });
    expect(create.status, create.text).toBe(200);
    expect(statuses(create)).toEqual([201, 400, 400, 400, 201]);
    expect(create.body.data[0].data).toMatchObject({ status: 'OPEN', dueAt: '2026-12-01T08:30:00.000Z' });
    const paths = (i: number) =>
      create.body.data[i].error.details.map((d: { path: string }) => d.path).sort();
    expect([paths(1), paths(2), paths(3)]).toEqual([['assigneeId'], ['recordId'], ['dueAt', 'title']]);
    const [first, , , , fifth] = create.body.data.map((d: { data?: { id: string } }) => d.data);
    const foreign = await created(other, '/tasks', { title: 'Theirs' });

    const patch = await app.api(ws.apiKey, 'PATCH', '/api/v1/tasks/batch', {
      items: [
        { id: first.id, status: 'DONE' },
        { id: foreign.id, status: 'DONE' },
        { id: fifth.id, recurrence: 'DAILY' },
        { id: MISSING_TASK, title: 'Nobody' },
      ],
    });
    expect(patch.status, patch.text).toBe(200);
    expect(statuses(patch)).toEqual([200, 404, 400, 404]);
    expect(patch.body.data[0].data).toMatchObject({ status: 'DONE', completedAt: expect.any(String) });
    expect(patch.body.data[2].error.details).toEqual([
      { path: 'recurrence', message: 'is not a known field' },
    ]);
    const types = (await eventTypes(ws.workspaceId)).filter((t) => t.startsWith('task.'));
    // Completing the weekly task created its next occurrence in the same transaction.
    expect(types).toEqual(['task.created', 'task.created', 'task.updated', 'task.completed', 'task.created']);
    const theirs = await app.api(other.apiKey, 'GET', `/api/v1/tasks/${foreign.id}`);
    expect(theirs.body.data).toEqual(foreign);

    const deleted = await app.api(ws.apiKey, 'POST', '/api/v1/tasks/batch/delete', {
      ids: [fifth.id, foreign.id, fifth.id],
    });
    expect(deleted.body.data).toEqual([
      { index: 0, status: 200, data: { id: fifth.id, deleted: true } },
      expect.objectContaining({
        index: 1,
        status: 404,
        error: expect.objectContaining({ code: 'NOT_FOUND' }),
      }),
      expect.objectContaining({ index: 2, status: 404 }),
    ]);
    expect((await app.api(other.apiKey, 'GET', `/api/v1/tasks/${foreign.id}`)).status).toBe(200);
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/tasks/${fifth.id}`)).status).toBe(404);
  });

  it('replays a task batch sent again with its Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': 'task-batch-1' };
    const body = { items: [{ title: 'Once only' }, { title: '' }] };
    const first = await app.api(ws.apiKey, 'POST', '/api/v1/tasks/batch', body, headers);
    const again = await app.api(ws.apiKey, 'POST', '/api/v1/tasks/batch', body, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await query("select id from tasks where workspace_id = $1 and title = 'Once only'", [
      ws.workspaceId,
    ]);
    expect(rows).toHaveLength(1);
  });
});
