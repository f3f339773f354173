import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFolder } from '../folders/load-folder.ts';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';
import { createRecord } from './create-record.ts';
import { getRecord } from './get-record.ts';
import { loadRecord } from './load-record.ts';
import { applyRecordChanges, type RecordChanges, updateRecord } from './update-record.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

async function newAda(ws: TestWorkspace) {
  const { record } = await createRecord(t.db, ws.actor, {
    folderId: ws.peopleFolderId,
    title: 'Ada',
    email: 'ada@example.com',
    phone: '123',
    ownerId: ws.actor.userId,
    data: { company: 'Engines', lifecycle: 'Lead' },
  });
  return record;
}

/** The row's system column xmin changes with every write, so an unchanged xmin proves nothing was written. */
const xminOf = async (id: string) =>
  (await t.query<{ xmin: string }>('select xmin::text from records where id = $1', [id]))[0]?.xmin;

describe('updateRecord', () => {
  it('merges data: given keys replace, null removes, other keys stay', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newAda(ws);
    const updated = await updateRecord(t.db, ws.actor, {
      id: ada.id,
      data: { lifecycle: 'Customer', company: null },
    });
    expect(updated.data).toEqual({ lifecycle: 'Customer' });
    const again = await updateRecord(t.db, ws.actor, { id: ada.id, data: { company: 'Babbage & Co' } });
    expect(again.data).toEqual({ lifecycle: 'Customer', company: 'Babbage & Co' });
  });

  it('leaves top-level fields that are not given as they are', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newAda(ws);
    const updated = await updateRecord(t.db, ws.actor, { id: ada.id, title: 'Ada Lovelace' });
    expect(updated).toMatchObject({
      title: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '123',
      ownerId: ws.actor.userId,
      data: { company: 'Engines', lifecycle: 'Lead' },
    });
    const cleared = await updateRecord(t.db, ws.actor, { id: ada.id, email: null, ownerId: null });
    expect(cleared).toMatchObject({ title: 'Ada Lovelace', email: null, phone: '123', ownerId: null });
  });

  it('keeps search_text in step with the new values', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newAda(ws);
    await updateRecord(t.db, ws.actor, { id: ada.id, phone: null, data: { company: 'Difference Ltd' } });
    const rows = await t.query<{ search_text: string }>('select search_text from records where id = $1', [
      ada.id,
    ]);
    expect(rows[0]?.search_text).toBe('ada\nada@example.com\ndifference ltd');
  });

  it('refuses invalid custom values and changes nothing', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newAda(ws);
    const error = await expectDomainError(
      updateRecord(t.db, ws.actor, { id: ada.id, title: 'Changed', data: { lifecycle: 'Nope', extra: 1 } }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.map((d) => d.path).sort()).toEqual(['data.extra', 'data.lifecycle']);
    expect((await getRecord(t.db, ws.actor, { id: ada.id })).title).toBe('Ada');
  });

  it('refuses an owner who is not a member with 400 VALIDATION_FAILED', async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db);
    const ada = await newAda(ws);
    for (const ownerId of [other.actor.userId, 'usr_00000000000000000000000000', '']) {
      const error = await expectDomainError(
        updateRecord(t.db, ws.actor, { id: ada.id, ownerId }),
        'VALIDATION_FAILED',
      );
      expect(error.details?.[0]?.path).toBe('ownerId');
    }
    expect((await getRecord(t.db, ws.actor, { id: ada.id })).ownerId).toBe(ws.actor.userId);
  });

  it('answers NOT_FOUND for an unknown or malformed id', async () => {
    const ws = await newWorkspace(t.db);
    await expectDomainError(
      updateRecord(t.db, ws.actor, { id: 'rec_00000000000000000000000000', title: 'X' }),
      'NOT_FOUND',
    );
    await expectDomainError(updateRecord(t.db, ws.actor, { id: 'nope', title: 'X' }), 'NOT_FOUND');
  });
});

describe('applyRecordChanges', () => {
  async function apply(ws: TestWorkspace, id: string, changes: RecordChanges) {
    return t.db.transaction(async (tx) => {
      const current = await loadRecord(tx, ws.actor, id, { forUpdate: true });
      const folder = await loadFolder(tx, ws.actor, current.folderId);
      return applyRecordChanges(tx, ws.actor, current, folder, changes);
    });
  }

  it('reports exactly the changed fields and their previous values', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newAda(ws);
    const result = await apply(ws, ada.id, {
      title: 'Ada',
      email: 'countess@example.com',
      phone: null,
      ownerId: ws.actor.userId,
      data: { company: 'Engines', lifecycle: 'Customer', extra: null },
    });
    expect(result.changedFields.sort()).toEqual(['data.lifecycle', 'email', 'phone']);
    expect(result.previous).toEqual({ email: 'ada@example.com', phone: '123', 'data.lifecycle': 'Lead' });
    expect(result.row).toMatchObject({ email: 'countess@example.com', phone: null });
  });

  it('reports an added key with previous null and a removed key with its old value', async () => {
    const ws = await newWorkspace(t.db);
    const { record } = await createRecord(t.db, ws.actor, {
      folderId: ws.peopleFolderId,
      title: 'Grace',
      data: { company: 'Navy' },
    });
    const result = await apply(ws, record.id, { data: { company: null, lifecycle: 'Lead' } });
    expect(result.changedFields.sort()).toEqual(['data.company', 'data.lifecycle']);
    expect(result.previous).toEqual({ 'data.company': 'Navy', 'data.lifecycle': null });
    expect(result.row.data).toEqual({ lifecycle: 'Lead' });
  });

  it('writes nothing when nothing changed', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newAda(ws);
    const before = await xminOf(ada.id);
    const result = await apply(ws, ada.id, {
      title: 'Ada',
      email: 'ada@example.com',
      data: { company: 'Engines', other: null },
    });
    expect(result.changedFields).toEqual([]);
    expect(result.previous).toEqual({});
    expect(await xminOf(ada.id)).toBe(before);
    const after = await updateRecord(t.db, ws.actor, { id: ada.id, phone: '123' });
    expect(after.updatedAt).toBe(ada.updatedAt);
    expect(await xminOf(ada.id)).toBe(before);
  });

  it('moves updatedAt forward when something changed', async () => {
    const ws = await newWorkspace(t.db);
    const ada = await newAda(ws);
    await t.query(`update records set updated_at = now() - interval '1 hour' where id = $1`, [ada.id]);
    const result = await apply(ws, ada.id, { phone: '456' });
    expect(result.changedFields).toEqual(['phone']);
    expect(Date.now() - result.row.updatedAt.getTime()).toBeLessThan(60_000);
  });
});
