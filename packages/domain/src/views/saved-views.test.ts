import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import type { Actor } from '../shared/actor.ts';
import {
  expectDomainError,
  newFolderWithAllTypes,
  newWorkspace,
  openTestDb,
  type TestDb,
} from '../testing/fixtures.ts';
import { addMember } from '../workspaces/create-workspace.ts';
import { createSavedView, deleteSavedView, findSavedViews, updateSavedView } from './index.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t?.close();
});

const definition = {
  columns: ['title', 'email', 'data.score', 'updatedAt'],
  sort: '-data.score',
  filters: [
    { field: 'data.stage', op: 'eq' as const, value: 'Customer' },
    { field: 'data.score', op: 'gte' as const, value: '50' },
  ],
};

/** Another person, a MEMBER of `actor`'s workspace. */
async function memberOf(actor: Actor): Promise<Actor> {
  const person = await newWorkspace(t.db, 'Their own');
  await t.db.transaction((tx) => addMember(tx, actor.workspaceId, person.actor.userId, 'MEMBER'));
  return { ...actor, userId: person.actor.userId, userName: person.actor.userName, role: 'MEMBER' };
}

async function setUp() {
  const ws = await newWorkspace(t.db);
  const folder = await newFolderWithAllTypes(t.db, ws.actor);
  return { ...ws, folderId: folder.id };
}

describe('saved views', () => {
  it('are created, listed by name, changed and deleted by their owner', async () => {
    const { actor, folderId } = await setUp();
    const b = await createSavedView(t.db, actor, { folderId, name: 'b customers', definition });
    const a = await createSavedView(t.db, actor, {
      folderId,
      name: 'A leads',
      definition: { columns: ['title'], sort: null, filters: [] },
    });
    expect(b).toMatchObject({ folderId, name: 'b customers', definition });
    expect(b.id).toMatch(/^view_/);
    expect((await findSavedViews(t.db, actor, { folderId })).map((x) => x.name)).toEqual([
      'A leads',
      'b customers',
    ]);
    const renamed = await updateSavedView(t.db, actor, {
      id: a.id,
      name: 'All leads',
      definition: { columns: ['title', 'phone'], sort: 'title', filters: [] },
    });
    expect(renamed).toMatchObject({
      name: 'All leads',
      definition: { columns: ['title', 'phone'], sort: 'title' },
    });
    expect(await deleteSavedView(t.db, actor, a.id)).toEqual({ id: a.id, deleted: true });
    expect((await findSavedViews(t.db, actor, { folderId })).map((x) => x.id)).toEqual([b.id]);
    await expectDomainError(deleteSavedView(t.db, actor, a.id), 'NOT_FOUND');
  });

  it('are seen and changed by their owner only', async () => {
    const { actor, folderId } = await setUp();
    const view = await createSavedView(t.db, actor, { folderId, name: 'Mine', definition });
    const other = await memberOf(actor);
    expect(await findSavedViews(t.db, other, { folderId })).toEqual([]);
    await expectDomainError(updateSavedView(t.db, other, { id: view.id, name: 'Taken' }), 'NOT_FOUND');
    await expectDomainError(deleteSavedView(t.db, other, view.id), 'NOT_FOUND');
    // The same name is another user's own business.
    await createSavedView(t.db, other, { folderId, name: 'Mine', definition });
    expect((await findSavedViews(t.db, actor, { folderId })).map((x) => x.id)).toEqual([view.id]);
  });

  it('stay in their workspace', async () => {
    const { actor, folderId } = await setUp();
    const view = await createSavedView(t.db, actor, { folderId, name: 'Mine', definition });
    const elsewhere = await newWorkspace(t.db, 'Elsewhere');
    // Another workspace's folder is not a folder of this one, even for the same user id.
    const intruder: Actor = { ...elsewhere.actor, userId: actor.userId };
    const refused = await expectDomainError(
      findSavedViews(t.db, intruder, { folderId }),
      'VALIDATION_FAILED',
    );
    expect(refused.details).toEqual([{ path: 'folderId', message: 'is not a folder of this workspace' }]);
    await expectDomainError(updateSavedView(t.db, intruder, { id: view.id, name: 'x' }), 'NOT_FOUND');
    await expectDomainError(deleteSavedView(t.db, intruder, view.id), 'NOT_FOUND');
    await expectDomainError(
      createSavedView(t.db, elsewhere.actor, { folderId, name: 'x', definition }),
      'VALIDATION_FAILED',
    );
  });

  it('refuse a definition the records list would refuse, naming each problem', async () => {
    const { actor, folderId } = await setUp();
    const error = await expectDomainError(
      createSavedView(t.db, actor, {
        folderId,
        name: 'Bad',
        definition: {
          columns: ['title', 'nope', 'title', 'data.missing'],
          sort: 'email',
          filters: [
            { field: 'data.score', op: 'gte', value: 'lots' },
            { field: 'data.stage', op: 'eq', value: 'Unknown' },
            { field: 'data.vip', op: 'contains', value: 'x' },
            { field: 'data.missing', op: 'eq', value: 'x' },
          ],
        },
      }),
      'VALIDATION_FAILED',
    );
    const paths = Object.fromEntries((error.details ?? []).map((d) => [d.path, d.message]));
    expect(paths['definition.columns.1']).toMatch(/nope is not a column of this folder/);
    expect(paths['definition.columns.2']).toBe('shows title twice');
    expect(paths['definition.columns.3']).toMatch(/data.missing is not a column/);
    expect(paths['definition.sort']).toMatch(/cannot sort by email/);
    expect(paths['definition.filters.0']).toBe('data.score gte: must be a number');
    expect(paths['definition.filters.1']).toMatch(/data.stage eq: /);
    expect(paths['definition.filters.2']).toMatch(/data.vip contains: /);
    expect(paths['definition.filters.3.field']).toMatch(/data.missing is not a field to filter on/);
    expect(error.message).toMatch(/^Invalid view: /);
    await expectDomainError(
      createSavedView(t.db, actor, {
        folderId,
        name: 'Twice',
        definition: {
          columns: ['title'],
          sort: null,
          filters: [
            { field: 'title', op: 'contains', value: 'a' },
            { field: 'title', op: 'contains', value: 'b' },
          ],
        },
      }),
      'VALIDATION_FAILED',
    );
    expect(await findSavedViews(t.db, actor, { folderId })).toEqual([]);
  });

  it('take one name once per user and folder, whatever its letter case', async () => {
    const { actor, folderId } = await setUp();
    await createSavedView(t.db, actor, { folderId, name: 'Customers', definition });
    const error = await expectDomainError(
      createSavedView(t.db, actor, { folderId, name: 'customers', definition }),
      'CONFLICT',
    );
    expect(error.details).toEqual([
      { path: 'name', message: 'is already the name of one of your views of this folder' },
    ]);
    const people = await createFolder(t.db, actor, { name: 'Other' });
    await createSavedView(t.db, actor, {
      folderId: people.id,
      name: 'Customers',
      definition: { columns: ['title'], sort: null, filters: [] },
    });
  });

  it('go with their folder when it is deleted', async () => {
    const { actor, folderId } = await setUp();
    await createSavedView(t.db, actor, { folderId, name: 'Gone soon', definition });
    await t.query('delete from folders where workspace_id = $1 and id = $2', [actor.workspaceId, folderId]);
    const [left] = await t.query<{ n: number }>(
      'select count(*)::int as n from saved_views where workspace_id = $1',
      [actor.workspaceId],
    );
    expect(left?.n).toBe(0);
  });
});
