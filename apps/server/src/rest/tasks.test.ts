import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
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

const INSTANT_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_TASK = 'task_01jq3v6f6ve7s9t8m1k2c3d4e5';

async function createTask(body: Record<string, unknown>, key = ws.apiKey) {
  const res = await app.api(key, 'POST', '/api/v1/tasks', body);
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function createRecord(w: TestWorkspace, title = 'Linked') {
  const res = await app.api(w.apiKey, 'POST', '/api/v1/records', { folderId: w.folderId, title });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; folderId: string };
}

async function count(table: 'tasks' | 'events', workspaceId = ws.workspaceId): Promise<number> {
  const result = await app.service.db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where workspace_id = ${workspaceId}`,
  );
  return result.rows[0]!.n;
}

async function eventsAbout(taskId: string) {
  const result = await app.service.db.execute<{ type: string; payload: Record<string, unknown> }>(
    sql`select type, payload from events where workspace_id = ${ws.workspaceId}
        and payload->>'taskId' = ${taskId} order by occurred_at, id`,
  );
  return result.rows;
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((t) => t.id);

describe('tasks over REST', () => {
  it('creates with 201, defaults, status OPEN and dueAt returned with milliseconds', async () => {
    const res = await app.api(ws.apiKey, 'POST', '/api/v1/tasks', {
      title: '  Call Ada  ',
      dueAt: '2027-03-01T10:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^task_[0-9a-z]{26}$/),
      title: 'Call Ada',
      dueAt: '2027-03-01T10:00:00.000Z',
      assigneeId: null,
      recordId: null,
      status: 'OPEN',
      priority: 'MEDIUM',
      type: 'TODO',
      recurrence: null,
      completedAt: null,
      createdAt: expect.stringMatching(INSTANT_MS),
      updatedAt: expect.stringMatching(INSTANT_MS),
    });
    const listed = await app.api(ws.apiKey, 'GET', '/api/v1/tasks?pageSize=200');
    expect(listed.body.data).toContainEqual(res.body.data);
    const got = await app.api(ws.apiKey, 'GET', `/api/v1/tasks/${res.body.data.id}`);
    expect(got.body).toEqual({ data: res.body.data });
  });

  it('stores an instant given with an offset as UTC, and links an assignee and a record', async () => {
    const record = await createRecord(ws);
    const task = await createTask({
      title: 'Meet',
      dueAt: '2027-03-01T10:00:00.5+02:00',
      assigneeId: ws.userId,
      recordId: record.id,
      priority: 'URGENT',
      type: 'MEETING',
      recurrence: 'WEEKLY',
    });
    expect(task).toMatchObject({
      dueAt: '2027-03-01T08:00:00.500Z',
      assigneeId: ws.userId,
      recordId: record.id,
      priority: 'URGENT',
      type: 'MEETING',
      recurrence: 'WEEKLY',
    });
  });

  it('filters by recordId, status and assigneeId, and sorts by dueAt with tasks without one last', async () => {
    const record = await createRecord(ws);
    const noDue = await createTask({ title: 'no due', recordId: record.id });
    const late = await createTask({ title: 'late', recordId: record.id, dueAt: '2027-09-01T00:00:00Z' });
    const soon = await createTask({
      title: 'soon',
      recordId: record.id,
      dueAt: '2027-01-01T00:00:00Z',
      assigneeId: ws.userId,
    });
    await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${late.id}`, { status: 'DONE' });
    const base = `/api/v1/tasks?recordId=${record.id}`;
    expect(ids(await app.api(ws.apiKey, 'GET', base))).toEqual([soon.id, late.id, noDue.id]);
    expect(ids(await app.api(ws.apiKey, 'GET', `${base}&sort=dueAt`))).toEqual([soon.id, late.id, noDue.id]);
    expect(ids(await app.api(ws.apiKey, 'GET', `${base}&sort=dueAt&status=OPEN`))).toEqual([
      soon.id,
      noDue.id,
    ]);
    expect(ids(await app.api(ws.apiKey, 'GET', `${base}&status=DONE`))).toEqual([late.id]);
    expect(ids(await app.api(ws.apiKey, 'GET', `${base}&assigneeId=${ws.userId}`))).toEqual([soon.id]);
    const paged = await app.api(ws.apiKey, 'GET', `${base}&sort=dueAt&pageSize=2`);
    expect(paged.body.meta).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
    const rest = await app.api(
      ws.apiKey,
      'GET',
      `${base}&sort=dueAt&pageSize=2&cursor=${encodeURIComponent(paged.body.meta.nextCursor)}`,
    );
    expect(ids(rest)).toEqual([noDue.id]);
    expect(rest.body.meta).toEqual({
      page: null,
      pageSize: 2,
      hasMore: false,
      nextCursor: null,
      nextUrl: null,
    });
  });

  it('refuses a bad status or sort (400) and an unknown record filter (404)', async () => {
    for (const query of [
      'status=done',
      'status=CLOSED',
      'sort=priority',
      'sort=-',
      'sort=dueAt&cursor=garbage',
    ]) {
      const res = await app.api(ws.apiKey, 'GET', `/api/v1/tasks?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const trashed = await createRecord(ws, 'Trashed');
    await app.api(ws.apiKey, 'DELETE', `/api/v1/records/${trashed.id}`);
    for (const recordId of ['rec_01jq3v6f6ve7s9t8m1k2c3d4e5', 'nope', trashed.id]) {
      const res = await app.api(ws.apiKey, 'GET', `/api/v1/tasks?recordId=${recordId}`);
      expect(res.status, recordId).toBe(404);
    }
  });

  it('sets completedAt on OPEN→DONE and clears it on DONE→OPEN', async () => {
    const task = await createTask({ title: 'Done soon' });
    const done = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, { status: 'DONE' });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'DONE', completedAt: expect.stringMatching(INSTANT_MS) });
    const reopened = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, { status: 'OPEN' });
    expect(reopened.body.data).toMatchObject({ status: 'OPEN', completedAt: null });
    const cleared = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, {
      dueAt: '2027-04-04T04:04:04Z',
      priority: 'LOW',
    });
    expect(cleared.body.data).toMatchObject({
      dueAt: '2027-04-04T04:04:04.000Z',
      priority: 'LOW',
      title: 'Done soon',
    });
    const unset = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, { dueAt: null });
    expect(unset.body.data.dueAt).toBeNull();
  });

  it('completing a monthly task due on the 31st creates exactly one next occurrence due at the month end', async () => {
    const record = await createRecord(ws, 'Recurring');
    const task = await createTask({
      title: 'Monthly report',
      dueAt: '2027-01-31T09:00:00Z',
      recordId: record.id,
      recurrence: 'MONTHLY',
      type: 'EMAIL',
    });
    const done = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, { status: 'DONE' });
    expect(done.body.data).toMatchObject({ id: task.id, status: 'DONE', dueAt: '2027-01-31T09:00:00.000Z' });
    const list = await app.api(ws.apiKey, 'GET', `/api/v1/tasks?recordId=${record.id}`);
    expect(list.body.data).toHaveLength(2);
    const next = list.body.data.find((t: { id: string }) => t.id !== task.id);
    expect(next).toMatchObject({
      title: 'Monthly report',
      status: 'OPEN',
      dueAt: '2027-02-28T09:00:00.000Z',
      recurrence: 'MONTHLY',
      type: 'EMAIL',
      completedAt: null,
    });
    const again = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, { status: 'DONE' });
    expect(again.status).toBe(200);
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/tasks?recordId=${record.id}`)).body.data).toHaveLength(
      2,
    );
  });

  it('deletes permanently with 200 and deleted: true, then answers 404', async () => {
    const task = await createTask({ title: 'Delete me' });
    const res = await app.api(ws.apiKey, 'DELETE', `/api/v1/tasks/${task.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: task.id, deleted: true } });
    for (const [method, body] of [['GET'], ['PATCH', { title: 'x' }], ['DELETE']] as const) {
      const again = await app.api(ws.apiKey, method, `/api/v1/tasks/${task.id}`, body);
      expect(again.status, method).toBe(404);
      expect(again.body.error.code).toBe('NOT_FOUND');
    }
    const rows = await app.service.db.execute(sql`select 1 from tasks where id = ${task.id}`);
    expect(rows.rows).toHaveLength(0);
  });

  it('answers 404 for a task id of the wrong shape or prefix', async () => {
    for (const id of ['nope', 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5', 'task_', MISSING_TASK]) {
      expect((await app.api(ws.apiKey, 'GET', `/api/v1/tasks/${id}`)).status, id).toBe(404);
      expect((await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${id}`, { title: 'x' })).status, id).toBe(404);
      expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/tasks/${id}`)).status, id).toBe(404);
    }
  });
});

describe('bad task input gets a 400 and writes nothing', () => {
  const notMember = () => other.userId;
  const cases: [string, () => Record<string, unknown>, string][] = [
    ['a missing title', () => ({}), 'title'],
    ['an empty title', () => ({ title: '   ' }), 'title'],
    ['a title over 500 characters', () => ({ title: 'x'.repeat(501) }), 'title'],
    ['a title of the wrong type', () => ({ title: 42 }), 'title'],
    ['an unknown key', () => ({ title: 'x', colour: 'red' }), 'colour'],
    ['a status on create', () => ({ title: 'x', status: 'DONE' }), 'status'],
    ['a date that is not an instant', () => ({ title: 'x', dueAt: '2027-03-01' }), 'dueAt'],
    ['an instant without a time zone', () => ({ title: 'x', dueAt: '2027-03-01T10:00:00' }), 'dueAt'],
    ['a bad priority', () => ({ title: 'x', priority: 'low' }), 'priority'],
    ['a bad type', () => ({ title: 'x', type: 'SMS' }), 'type'],
    ['a bad recurrence', () => ({ title: 'x', recurrence: 'HOURLY' }), 'recurrence'],
    ['an assignee who is not a member', () => ({ title: 'x', assigneeId: notMember() }), 'assigneeId'],
    ['an assignee that is not a user id', () => ({ title: 'x', assigneeId: 'bob' }), 'assigneeId'],
    ['a record of another workspace', () => ({ title: 'x', recordId: otherRecordId }), 'recordId'],
    ['a record in Trash', () => ({ title: 'x', recordId: trashedRecordId }), 'recordId'],
    ['a record id of the wrong shape', () => ({ title: 'x', recordId: 'rec_nope' }), 'recordId'],
  ];
  let otherRecordId: string;
  let trashedRecordId: string;

  beforeAll(async () => {
    otherRecordId = (await createRecord(other)).id;
    trashedRecordId = (await createRecord(ws, 'Trashed')).id;
    await app.api(ws.apiKey, 'DELETE', `/api/v1/records/${trashedRecordId}`);
  });

  it.each(cases)('POST with %s', async (_name, body, path) => {
    const [tasks, events] = [await count('tasks'), await count('events')];
    const res = await app.api(ws.apiKey, 'POST', '/api/v1/tasks', body());
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect([await count('tasks'), await count('events')]).toEqual([tasks, events]);
  });

  it('PATCH with a bad value, an unknown key or recurrence leaves the task and the events as they were', async () => {
    const task = await createTask({ title: 'Keep me', recurrence: 'DAILY' });
    const bodies: [Record<string, unknown>, string][] = [
      [{ recurrence: 'WEEKLY' }, 'recurrence'],
      [{ status: 'CLOSED' }, 'status'],
      [{ status: 'DONE', title: null }, 'title'],
      [{ status: 'DONE', dueAt: 'tomorrow' }, 'dueAt'],
      [{ status: 'DONE', priority: 3 }, 'priority'],
      [{ status: 'DONE', colour: 'red' }, 'colour'],
      [{ status: 'DONE', recordId: otherRecordId }, 'recordId'],
      [{ status: 'DONE', assigneeId: notMember() }, 'assigneeId'],
      [{ id: MISSING_TASK }, 'id'],
    ];
    const [tasks, events] = [await count('tasks'), await count('events')];
    for (const [body, path] of bodies) {
      const res = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect([await count('tasks'), await count('events')]).toEqual([tasks, events]);
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/tasks/${task.id}`)).body.data).toEqual(task);
  });
});

describe('task events', () => {
  it('writes task.created with the record snapshot, and task.completed on DONE only', async () => {
    const record = await createRecord(ws, 'Evented');
    const task = await createTask({ title: 'Evented', recordId: record.id });
    const created = await eventsAbout(task.id);
    expect(created).toEqual([
      {
        type: 'task.created',
        payload: expect.objectContaining({
          event: 'task.created',
          workspaceId: ws.workspaceId,
          taskId: task.id,
          task,
          recordId: record.id,
          folderId: record.folderId,
          record: expect.objectContaining({ id: record.id, title: 'Evented', folderId: record.folderId }),
        }),
      },
    ]);
    await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, { title: 'Renamed' });
    const renamed = await eventsAbout(task.id);
    expect(renamed.map((e) => e.type)).toEqual(['task.created', 'task.updated']);
    expect(renamed[1]!.payload).toMatchObject({
      changedFields: ['title'],
      changes: { title: { from: 'Evented', to: 'Renamed' } },
      actor: { type: 'apiKey' },
      source: 'rest',
    });
    const done = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, { status: 'DONE' });
    const events = await eventsAbout(task.id);
    expect(events.map((e) => e.type)).toEqual([
      'task.created',
      'task.updated',
      'task.updated',
      'task.completed',
    ]);
    expect(events[3]!.payload).toMatchObject({ task: done.body.data, nextTaskId: null, recordId: record.id });
  });

  it('writes no event for a refused create or a refused completion', async () => {
    const task = await createTask({ title: 'Not yet' });
    const before = await count('events');
    const refused = await app.api(ws.apiKey, 'PATCH', `/api/v1/tasks/${task.id}`, {
      status: 'DONE',
      assigneeId: other.userId,
    });
    expect(refused.status).toBe(400);
    const badCreate = await app.api(ws.apiKey, 'POST', '/api/v1/tasks', {
      title: 'x',
      assigneeId: other.userId,
    });
    expect(badCreate.status).toBe(400);
    expect(await count('events')).toBe(before);
    expect((await eventsAbout(task.id)).map((e) => e.type)).toEqual(['task.created']);
  });
});

describe('tenant isolation of tasks', () => {
  it("answers 404 to another workspace for every task id, and never lists another workspace's tasks", async () => {
    const record = await createRecord(ws, 'Private');
    const task = await createTask({ title: 'Secret task', recordId: record.id });
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/v1/tasks/${task.id}`],
      ['PATCH', `/api/v1/tasks/${task.id}`, { title: 'hijacked' }],
      ['PATCH', `/api/v1/tasks/${task.id}`, { status: 'DONE' }],
      ['DELETE', `/api/v1/tasks/${task.id}`],
      ['GET', `/api/v1/tasks?recordId=${record.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await app.api(other.apiKey, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    for (const query of ['', '?status=OPEN', '?sort=dueAt', `?assigneeId=${ws.userId}`]) {
      const res = await app.api(other.apiKey, 'GET', `/api/v1/tasks${query}${query ? '&' : '?'}pageSize=200`);
      expect(res.status).toBe(200);
      expect(ids(res)).not.toContain(task.id);
      expect(res.body.data.every((t: { title: string }) => t.title !== 'Secret task')).toBe(true);
    }
    const after = await app.api(ws.apiKey, 'GET', `/api/v1/tasks/${task.id}`);
    expect(after.body.data).toEqual(task);
  });
});

describe('tasks over tRPC', () => {
  const client = (key: string) =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${key}` }) })],
    });

  it('creates, lists, updates and deletes the same tasks as REST', async () => {
    const trpc = client(ws.apiKey);
    const created = await trpc.tasks.create.mutate({ title: 'Via tRPC', dueAt: '2027-06-01T12:00:00Z' });
    expect(created.data).toMatchObject({
      status: 'OPEN',
      dueAt: '2027-06-01T12:00:00.000Z',
      priority: 'MEDIUM',
    });
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/tasks/${created.data.id}`)).body).toEqual(created);
    const list = await trpc.tasks.list.query({ sort: 'dueAt', status: 'OPEN', pageSize: 200 });
    expect(list).toEqual(
      (await app.api(ws.apiKey, 'GET', '/api/v1/tasks?sort=dueAt&status=OPEN&pageSize=200')).body,
    );
    expect(list.data.map((t) => t.id)).toContain(created.data.id);
    const done = await trpc.tasks.update.mutate({ id: created.data.id, status: 'DONE' });
    expect(done.data.completedAt).toEqual(expect.stringMatching(INSTANT_MS));
    expect((await eventsAbout(created.data.id)).map((e) => e.type)).toEqual([
      'task.created',
      'task.updated',
      'task.completed',
    ]);
    expect(await trpc.tasks.delete.mutate({ id: created.data.id })).toEqual({
      data: { id: created.data.id, deleted: true },
    });
  });

  it('refuses what REST refuses, with the same codes and details', async () => {
    const trpc = client(ws.apiKey);
    const failure = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => expect.unreachable('the call succeeded'),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TRPCClientError);
      return (error as TRPCClientError<AppRouter>).data as unknown as {
        httpStatus: number;
        error: { code: string; details?: unknown };
      };
    };
    const input = { title: 'x', assigneeId: other.userId };
    const invalid = await failure(trpc.tasks.create.mutate(input));
    const rest = await app.api(ws.apiKey, 'POST', '/api/v1/tasks', input);
    expect(invalid.httpStatus).toBe(400);
    expect(invalid.error.details).toEqual(rest.body.error.details);
    const task = await createTask({ title: 'Fixed' });
    const recurrence = await failure(trpc.tasks.update.mutate({ id: task.id, recurrence: 'DAILY' } as never));
    expect(recurrence.error.code).toBe('VALIDATION_FAILED');
    const foreign = await failure(
      client(other.apiKey).tasks.update.mutate({ id: task.id, title: 'hijacked' }),
    );
    expect(foreign.httpStatus).toBe(404);
    expect((await failure(trpc.tasks.list.query({ status: 'CLOSED' } as never))).httpStatus).toBe(400);
  });
});
