import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createTask } from './create-task.ts';
import { findTasks } from './find-tasks.ts';
import type { FindTasksInput } from './schemas.ts';
import { updateTask } from './update-task.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

describe('task filters and sorts', () => {
  it('filter by status, priority, dueAt and assignee, and sort by -dueAt with tasks without one last', async () => {
    const { actor: own } = await newWorkspace(t.db, 'Tasks');
    const a = await createTask(t.db, own, { title: 'A', dueAt: '2026-05-01T09:00:00Z', priority: 'HIGH' });
    await createTask(t.db, own, { title: 'B', dueAt: '2026-06-01T09:00:00Z', assigneeId: own.userId });
    await createTask(t.db, own, { title: 'C', priority: 'URGENT' });
    await updateTask(t.db, own, { id: a.id, status: 'DONE' });
    const titles = async (input: FindTasksInput) =>
      (await findTasks(t.db, own, input)).data.map((x) => x.title);
    expect(await titles({ filter: { priority: { in: 'HIGH,URGENT' } }, sort: 'title' })).toEqual(['A', 'C']);
    expect(await titles({ filter: { dueAt: { gte: '2026-05-15T00:00:00Z' } } })).toEqual(['B']);
    expect(await titles({ filter: { assigneeId: { empty: 'false' } } })).toEqual(['B']);
    expect(await titles({ filter: { completedAt: { empty: 'false' } } })).toEqual(['A']);
    expect(await titles({ sort: '-dueAt' })).toEqual(['B', 'A', 'C']);
    expect(await titles({ sort: 'dueAt', filter: { status: 'OPEN' } })).toEqual(['B', 'C']);
    // sort=createdAt keeps its first meaning: newest first.
    expect(await titles({ sort: 'createdAt' })).toEqual(['C', 'B', 'A']);
    expect(await titles({ sort: 'updatedAt' })).toEqual(['B', 'C', 'A']);
    const page = await findTasks(t.db, own, { sort: 'dueAt', count: 'true', status: 'OPEN' });
    expect(page.meta.total).toBe(2);
    const bad = await expectDomainError(
      findTasks(t.db, own, { filter: { status: 'LATER' } }),
      'VALIDATION_FAILED',
    );
    expect(bad.details).toEqual([
      { path: 'filter[status]', message: 'status eq: must be one of: OPEN, DONE' },
    ]);
  });
});
