import type { Database } from '@crm/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../records/create-record.ts';
import { getRecord } from '../records/get-record.ts';
import { restoreRecord } from '../records/restore-record.ts';
import { trashRecord } from '../records/trash-record.ts';
import { updateRecord } from '../records/update-record.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

interface EventRow {
  type: string;
  payload: Record<string, unknown>;
}

const eventsOf = (workspaceId: string) =>
  t.query<EventRow>('select type, payload from events where workspace_id = $1 order by occurred_at, id', [
    workspaceId,
  ]);

describe('record events', () => {
  it('writes record.created, record.updated, record.trashed and record.restored with the snapshot of the moment', async () => {
    const ws = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      title: 'Ada',
      email: 'ada@example.com',
      data: { company: 'Engines' },
    });
    await updateRecord(t.db, ws.actor, {
      id: record.id,
      title: 'Ada L.',
      data: { company: null, lifecycle: 'Lead' },
    });
    await updateRecord(t.db, ws.actor, { id: record.id, title: 'Ada L.' });
    await trashRecord(t.db, ws.actor, record.id);
    await restoreRecord(t.db, ws.actor, record.id);
    const events = await eventsOf(ws.actor.workspaceId);
    expect(events.map((e) => e.type)).toEqual([
      'record.created',
      'record.updated',
      'record.trashed',
      'record.restored',
    ]);
    const [created, updated] = events;
    expect(created!.payload).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      event: 'record.created',
      workspaceId: ws.actor.workspaceId,
      recordId: record.id,
      folderId: ws.peopleFolderId,
      occurredAt: expect.stringMatching(/Z$/),
      record: {
        id: record.id,
        folderId: ws.peopleFolderId,
        title: 'Ada',
        email: 'ada@example.com',
        phone: null,
        data: { company: 'Engines' },
      },
    });
    expect(updated!.payload).toMatchObject({
      changedFields: ['title', 'data.company', 'data.lifecycle'],
      previous: { title: 'Ada', 'data.company': 'Engines', 'data.lifecycle': null },
      record: { title: 'Ada L.', data: { lifecycle: 'Lead' } },
    });
  });

  it('carries the record as the API answers it: GET after create, update and restore, the Trash answer for trashed', async () => {
    const ws = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      title: 'Ada',
      email: 'ada@example.com',
      ownerId: ws.actor.userId,
      data: { company: 'Engines' },
    });
    const afterCreate = await getRecord(t.db, ws.actor, { id: record.id });
    await updateRecord(t.db, ws.actor, { id: record.id, title: 'Ada L.', ownerId: null });
    const afterUpdate = await getRecord(t.db, ws.actor, { id: record.id });
    const trashed = await trashRecord(t.db, ws.actor, record.id);
    await restoreRecord(t.db, ws.actor, record.id);
    const afterRestore = await getRecord(t.db, ws.actor, { id: record.id });
    const events = await eventsOf(ws.actor.workspaceId);
    expect(events.map((e) => e.payload.record)).toEqual([afterCreate, afterUpdate, trashed, afterRestore]);
    expect(trashed.trashedAt).toEqual(expect.any(String));
    expect(afterCreate).toMatchObject({ ownerId: ws.actor.userId, trashedAt: null });
  });

  it('writes nothing when the change is rolled back or refused', async () => {
    const ws = await newWorkspace(t.db);
    await expect(
      t.db.transaction(async (tx) => {
        await createRecord(tx as unknown as Database, ws.actor, {
          folderId: ws.peopleFolderId,
          title: 'Ghost',
        });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expect(
      createRecord(t.db, ws.actor, {
        folderId: ws.peopleFolderId,
        title: 'Bad',
        data: { lifecycle: 'Nope' },
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await eventsOf(ws.actor.workspaceId)).toEqual([]);
    const records = await t.query('select id from records where workspace_id = $1', [ws.actor.workspaceId]);
    expect(records).toEqual([]);
  });

  it('reports an upsert that updates as record.updated', async () => {
    const ws = await newWorkspace(t.db);
    const input = {
      folderId: ws.peopleFolderId,
      title: 'Grace',
      email: 'grace@example.com',
      upsert: 'email' as const,
    };
    await createRecord(t.db, ws.actor, input);
    await createRecord(t.db, ws.actor, { ...input, title: 'Grace H.' });
    const events = await eventsOf(ws.actor.workspaceId);
    expect(events.map((e) => e.type)).toEqual(['record.created', 'record.updated']);
    expect(events[1]!.payload).toMatchObject({ changedFields: ['title'], previous: { title: 'Grace' } });
  });
});
