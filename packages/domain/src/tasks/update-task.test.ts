import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import { trashRecord } from '../records/trash-record.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createTask } from './create-task.ts';
import type { CreateTaskInput } from './schemas.ts';
import { updateTask } from './update-task.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb({ max: 12 });
});
afterAll(() => t?.close());

interface TaskRowView {
  id: string;
  title: string;
  status: string;
  due_at: Date | null;
  completed_at: Date | null;
  record_id: string | null;
  assignee_id: string | null;
  recurrence: string | null;
}

const tasksOf = (workspaceId: string) =>
  t.query<TaskRowView>('select * from tasks where workspace_id = $1 order by id', [workspaceId]);

const eventsOf = (workspaceId: string) =>
  t.query<{ type: string; payload: Record<string, unknown> }>(
    "select type, payload from events where workspace_id = $1 and type like 'task.%' order by occurred_at, id",
    [workspaceId],
  );

async function setup(input: Partial<CreateTaskInput> = {}) {
  const ws = await newWorkspace(t.db);
  const task = await createTask(t.db, ws.actor, { title: 'Call back', ...input });
  return { ws, task };
}

describe('updateTask status changes', () => {
  it('sets completedAt on OPEN→DONE and clears it on DONE→OPEN', async () => {
    const { ws, task } = await setup();
    const done = await updateTask(t.db, ws.actor, { id: task.id, status: 'DONE' });
    expect(done.status).toBe('DONE');
    expect(done.completedAt).toBe(done.updatedAt);
    const reopened = await updateTask(t.db, ws.actor, { id: task.id, status: 'OPEN' });
    expect(reopened).toMatchObject({ status: 'OPEN', completedAt: null });
    const events = await eventsOf(ws.actor.workspaceId);
    expect(events.map((e) => e.type)).toEqual([
      'task.created',
      'task.updated',
      'task.completed',
      'task.updated',
    ]);
    expect(events[1]!.payload).toMatchObject({
      taskId: task.id,
      changedFields: ['status'],
      previous: { status: 'OPEN' },
      changes: { status: { from: 'OPEN', to: 'DONE' } },
    });
    expect(events[3]!.payload).toMatchObject({ changes: { status: { from: 'DONE', to: 'OPEN' } } });
  });

  it('leaves a task untouched when nothing changes, without a second completion', async () => {
    const { ws, task } = await setup({ recurrence: 'DAILY' });
    const done = await updateTask(t.db, ws.actor, { id: task.id, status: 'DONE' });
    const again = await updateTask(t.db, ws.actor, { id: task.id, status: 'DONE', title: 'Call back' });
    expect(again).toEqual(done);
    expect(await tasksOf(ws.actor.workspaceId)).toHaveLength(2);
  });
});

describe('completing a recurring task', () => {
  it('creates exactly one next occurrence, OPEN, with the same fields and dueAt a month on (Jan 31 → Feb 28)', async () => {
    const ws = await newWorkspace(t.db);
    const record = (await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Ada' })).record;
    const task = await createTask(t.db, ws.actor, {
      title: 'Invoice',
      dueAt: '2027-01-31T09:00:00.000Z',
      assigneeId: ws.actor.userId,
      recordId: record.id,
      priority: 'HIGH',
      type: 'EMAIL',
      recurrence: 'MONTHLY',
    });
    await updateTask(t.db, ws.actor, { id: task.id, status: 'DONE' });
    const rows = await tasksOf(ws.actor.workspaceId);
    expect(rows).toHaveLength(2);
    const next = rows.find((r) => r.id !== task.id)!;
    expect(next).toMatchObject({
      title: 'Invoice',
      status: 'OPEN',
      completed_at: null,
      record_id: record.id,
      assignee_id: ws.actor.userId,
      priority: 'HIGH',
      type: 'EMAIL',
      recurrence: 'MONTHLY',
    });
    expect(next.due_at?.toISOString()).toBe('2027-02-28T09:00:00.000Z');
    const events = await eventsOf(ws.actor.workspaceId);
    expect(events.map((e) => e.type)).toEqual([
      'task.created',
      'task.updated',
      'task.completed',
      'task.created',
    ]);
    expect(events[2]!.payload).toMatchObject({ taskId: task.id, nextTaskId: next.id, recordId: record.id });
    expect(events[3]!.payload).toMatchObject({ taskId: next.id, previousTaskId: task.id });
  });

  it('dates the occurrence from the completion when the task had no dueAt', async () => {
    const { ws, task } = await setup({ recurrence: 'WEEKLY' });
    const done = await updateTask(t.db, ws.actor, { id: task.id, status: 'DONE' });
    const next = (await tasksOf(ws.actor.workspaceId)).find((r) => r.id !== task.id)!;
    expect(next.due_at!.getTime() - Date.parse(done.completedAt!)).toBe(7 * 86_400_000);
  });

  it('creates another occurrence for each completion (DONE→OPEN→DONE)', async () => {
    const { ws, task } = await setup({ recurrence: 'DAILY', dueAt: '2027-05-01T08:00:00Z' });
    for (const status of ['DONE', 'OPEN', 'DONE'] as const)
      await updateTask(t.db, ws.actor, { id: task.id, status });
    const rows = await tasksOf(ws.actor.workspaceId);
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.id !== task.id).map((r) => r.due_at?.toISOString())).toEqual([
      '2027-05-02T08:00:00.000Z',
      '2027-05-02T08:00:00.000Z',
    ]);
  });

  it('does not carry over a link to a record that went to Trash', async () => {
    const ws = await newWorkspace(t.db);
    const record = (await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'Gone' }))
      .record;
    const task = await createTask(t.db, ws.actor, { title: 'x', recordId: record.id, recurrence: 'DAILY' });
    await trashRecord(t.db, ws.actor, record.id);
    await updateTask(t.db, ws.actor, { id: task.id, status: 'DONE' });
    const next = (await tasksOf(ws.actor.workspaceId)).find((r) => r.id !== task.id)!;
    expect(next.record_id).toBeNull();
    expect((await eventsOf(ws.actor.workspaceId))[1]!.payload).toMatchObject({
      recordId: null,
      record: null,
    });
  });

  it('creates one occurrence when two requests complete the task at the same time', async () => {
    const { ws, task } = await setup({ recurrence: 'DAILY' });
    await t.warm(6);
    await Promise.all(
      Array.from({ length: 6 }, () => updateTask(t.db, ws.actor, { id: task.id, status: 'DONE' })),
    );
    expect(await tasksOf(ws.actor.workspaceId)).toHaveLength(2);
    expect((await eventsOf(ws.actor.workspaceId)).filter((e) => e.type === 'task.completed')).toHaveLength(1);
  });
});

describe('updateTask links', () => {
  it('refuses a new record in Trash but accepts sending back the current one', async () => {
    const ws = await newWorkspace(t.db);
    const record = (await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'R' })).record;
    const other = (await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title: 'S' })).record;
    const task = await createTask(t.db, ws.actor, { title: 'x', recordId: record.id });
    await trashRecord(t.db, ws.actor, record.id);
    await trashRecord(t.db, ws.actor, other.id);
    const kept = await updateTask(t.db, ws.actor, { id: task.id, recordId: record.id, title: 'y' });
    expect(kept).toMatchObject({ recordId: record.id, title: 'y' });
    const error = await expectDomainError(
      updateTask(t.db, ws.actor, { id: task.id, recordId: other.id }),
      'VALIDATION_FAILED',
    );
    expect(error.details).toEqual([{ path: 'recordId', message: expect.any(String) }]);
  });
});
