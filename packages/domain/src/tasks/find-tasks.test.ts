import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueCursor, encodeCursor } from '../shared/cursor.ts';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';
import { createTask } from './create-task.ts';
import { findTasks } from './find-tasks.ts';
import type { FindTasksInput } from './schemas.ts';
import { updateTask } from './update-task.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

/** Creates one task per due time, in the order given; returns their ids in that order. */
async function seed(ws: TestWorkspace, dues: (string | null)[], title = 'T') {
  const ids: string[] = [];
  for (const dueAt of dues) ids.push((await createTask(t.db, ws.actor, { title, dueAt })).id);
  return ids;
}

/** Follows `nextCursor` to the end, running `between` after each page; returns the ids seen. */
async function walk(
  ws: TestWorkspace,
  input: FindTasksInput,
  between: () => Promise<unknown> = async () => {},
) {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await findTasks(t.db, ws.actor, { ...input, ...(cursor ? { cursor } : {}) });
    seen.push(...page.data.map((task) => task.id));
    expect(page.meta.hasMore).toBe(page.meta.nextCursor !== null);
    cursor = page.meta.nextCursor ?? undefined;
    await between();
  } while (cursor);
  return seen;
}

const DUES = [null, '2027-03-01T10:00:00Z', null, '2027-01-01T10:00:00Z', '2027-02-01T10:00:00Z', null];

describe('findTasks with sort=dueAt', () => {
  it('orders soonest due first, tasks without dueAt last, ties by id', async () => {
    const ws = await newWorkspace(t.db);
    const [n1, mar, n2, jan, feb, n3] = await seed(ws, DUES);
    const [tieA, tieB] = await seed(ws, ['2027-02-01T10:00:00Z', '2027-02-01T10:00:00Z']);
    const expected = [jan, feb, tieA, tieB, mar, n1, n2, n3];
    const page = await findTasks(t.db, ws.actor, { sort: 'dueAt' });
    expect(page.data.map((task) => task.id)).toEqual(expected);
    const second = await findTasks(t.db, ws.actor, { sort: 'dueAt', page: 2, pageSize: 3 });
    expect(second.data.map((task) => task.id)).toEqual(expected.slice(3, 6));
    expect(second.meta).toMatchObject({ page: 2, pageSize: 3, hasMore: true });
  });

  it('walks every page by cursor, across the null boundary, without duplicates while tasks are added', async () => {
    const ws = await newWorkspace(t.db);
    const [n1, mar, n2, jan, feb, n3] = await seed(ws, DUES);
    let added = 0;
    const seen = await walk(ws, { sort: 'dueAt', pageSize: 2 }, async () => {
      // One sorts before every cursor (never shown), one after all of them (shown last).
      await seed(ws, ['2026-01-01T00:00:00Z', null], `Late${added++}`);
    });
    expect(seen.slice(0, 6)).toEqual([jan, feb, mar, n1, n2, n3]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(6);
  });

  it('keeps the status and assignee filters while paging by cursor', async () => {
    const ws = await newWorkspace(t.db);
    const assigned = async (dueAt: string | null) =>
      (await createTask(t.db, ws.actor, { title: 'mine', dueAt, assigneeId: ws.actor.userId })).id;
    const late = await assigned(null);
    const soon = await assigned('2027-01-01T00:00:00Z');
    const done = await assigned('2026-06-01T00:00:00Z');
    await updateTask(t.db, ws.actor, { id: done, status: 'DONE' });
    await seed(ws, DUES, 'unassigned');
    const mineOpen = { sort: 'dueAt', status: 'OPEN', assigneeId: ws.actor.userId } as const;
    expect(await walk(ws, { ...mineOpen, pageSize: 1 })).toEqual([soon, late]);
    expect(await walk(ws, { sort: 'dueAt', status: 'DONE', pageSize: 1 })).toEqual([done]);
  });

  it('refuses a cursor of the other order, a forged one, and page with cursor', async () => {
    const ws = await newWorkspace(t.db);
    const createdCursor = encodeCursor({ createdAt: new Date().toISOString(), id: 'task_x' });
    const dueAtCursor = encodeCursor({ dueAt: null, id: 'task_x' }, dueCursor);
    await expectDomainError(
      findTasks(t.db, ws.actor, { sort: 'dueAt', cursor: createdCursor }),
      'VALIDATION_FAILED',
    );
    await expectDomainError(findTasks(t.db, ws.actor, { cursor: dueAtCursor }), 'VALIDATION_FAILED');
    const forged = Buffer.from(JSON.stringify(['dueAt', 'not a date', 'task_x'])).toString('base64url');
    await expectDomainError(
      findTasks(t.db, ws.actor, { sort: 'dueAt', cursor: forged }),
      'VALIDATION_FAILED',
    );
    await expectDomainError(
      findTasks(t.db, ws.actor, { sort: 'dueAt', cursor: dueAtCursor, page: 1 }),
      'VALIDATION_FAILED',
    );
    await expectDomainError(findTasks(t.db, ws.actor, { sort: 'dueAt', pageSize: 201 }), 'VALIDATION_FAILED');
  });
});

describe('findTasks default order', () => {
  it('lists newest first and pages by cursor', async () => {
    const ws = await newWorkspace(t.db);
    const ids = (await seed(ws, DUES)).reverse();
    expect(await walk(ws, { pageSize: 4 })).toEqual(ids);
  });

  it('answers NOT_FOUND for a recordId filter that is not a live record of the workspace', async () => {
    const ws = await newWorkspace(t.db);
    await expectDomainError(
      findTasks(t.db, ws.actor, { recordId: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
      'NOT_FOUND',
    );
    await expectDomainError(findTasks(t.db, ws.actor, { recordId: 'nope' }), 'NOT_FOUND');
  });
});
