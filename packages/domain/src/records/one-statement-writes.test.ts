import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import { attachFolderCache, FolderCache } from '../folders/folder-cache.ts';
import { loadFolder } from '../folders/load-folder.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createRecord } from './create-record.ts';
import { updateRecord } from './update-record.ts';

/**
 * A create or a PATCH is one statement without a transaction when it can be (docs/performance.md,
 * "Writes in one statement"): its folder comes from the process's memory, and the statement
 * writes only if the folder's fields are still those the values were checked against. When
 * memory is behind the database, the write goes the transactional way and is decided against
 * the folder as it stands, never against the stale copy.
 */

let t: TestDb;
let cache: FolderCache;

beforeAll(async () => {
  t = await openTestDb();
  cache = new FolderCache();
  cache.setListening(true);
  attachFolderCache(t.db, cache);
});
afterEach(() => cache.setListening(true));
afterAll(async () => {
  cache.close();
  await t?.close();
});

/** Changes a folder's fields behind the cache's back (no notification), as a hand-typed UPDATE would. */
async function setFieldsBehindTheCache(workspaceId: string, folderId: string, fields: unknown[]) {
  await t.query('update folders set fields = $3::jsonb where workspace_id = $1 and id = $2', [
    workspaceId,
    folderId,
    JSON.stringify(fields),
  ]);
}

describe('writes in one statement', () => {
  it('creates and changes a record in one statement each, with its events and history', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const created = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Ada',
      data: { company: 'X' },
    });
    expect(created.created).toBe(true);
    const changed = await updateRecord(t.db, actor, {
      id: created.record.id,
      title: 'Ada L',
      data: { company: 'Y' },
    });
    expect(changed).toMatchObject({ title: 'Ada L', data: { company: 'Y' } });
    expect(changed.updatedAt >= created.record.updatedAt).toBe(true);
    const events = await t.query<{
      type: string;
      payload: { record: { title: string; createdAt: string; updatedAt: string } };
    }>('select type, payload from events where workspace_id = $1 order by occurred_at, id', [
      actor.workspaceId,
    ]);
    const recordEvents = events.filter((e) => e.type.startsWith('record.'));
    expect(recordEvents.map((e) => e.type)).toEqual(['record.created', 'record.updated']);
    // The payloads show the record with the instants the database gave it, as a read does.
    expect(recordEvents[0]!.payload.record).toMatchObject({
      createdAt: created.record.createdAt,
      updatedAt: created.record.updatedAt,
    });
    expect(recordEvents[1]!.payload.record).toMatchObject({ title: 'Ada L', updatedAt: changed.updatedAt });
    const history = await t.query<{ field: string }>(
      'select field from history where workspace_id = $1 and subject_id = $2 order by field',
      [actor.workspaceId, created.record.id],
    );
    expect(history.map((h) => h.field)).toEqual(['data.company', 'title']);
  });

  it('refuses a value for a field removed behind the memory of the folder, and takes a field added that way', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const folder = await loadFolder(t.db, actor, peopleFolderId);
    // Kept in memory with its fields as they are now.
    expect((await loadFolder(t.db, actor, peopleFolderId)).fields).toEqual(folder.fields);
    const withoutCompany = folder.fields.filter((f) => f.key !== 'company');
    await setFieldsBehindTheCache(actor.workspaceId, peopleFolderId, withoutCompany);
    // Memory still has `company`: the statement's guard sees the fields changed and the create
    // is decided again against the folder as stored, which refuses it.
    await expect(
      createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Grace', data: { company: 'X' } }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const ada = await createRecord(t.db, actor, { folderId: peopleFolderId, title: 'Ada' });
    await expect(
      updateRecord(t.db, actor, { id: ada.record.id, data: { company: 'X' } }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    // A field memory does not know yet is taken, the way the database has it.
    await setFieldsBehindTheCache(actor.workspaceId, peopleFolderId, [
      ...withoutCompany,
      { key: 'tier', type: 'TEXT', label: 'Tier' },
    ]);
    const tiered = await createRecord(t.db, actor, {
      folderId: peopleFolderId,
      title: 'Tiered',
      data: { tier: 'A' },
    });
    expect(tiered.record.data).toEqual({ tier: 'A' });
    expect(await updateRecord(t.db, actor, { id: ada.record.id, data: { tier: 'B' } })).toMatchObject({
      data: { tier: 'B' },
    });
  });

  it('loses no change when PATCHes of different fields of one record race', async () => {
    const { actor } = await newWorkspace(t.db);
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    const folder = await createFolder(t.db, actor, {
      name: 'Raced',
      fields: keys.map((key) => ({ key, label: key, type: 'TEXT' as const })),
    });
    const { record } = await createRecord(t.db, actor, { folderId: folder.id, title: 'Ada' });
    // Each PATCH reads the record, then writes only if it still holds what was read; one that
    // lost the race is decided again, under the record's lock, so every value lands.
    await Promise.all(keys.map((key) => updateRecord(t.db, actor, { id: record.id, data: { [key]: key } })));
    const [row] = await t.query<{ data: Record<string, string> }>(
      'select data from records where workspace_id = $1 and id = $2',
      [actor.workspaceId, record.id],
    );
    expect(row!.data).toEqual(Object.fromEntries(keys.map((key) => [key, key])));
    const events = await t.query<{ n: number }>(
      `select count(*)::int as n from events where workspace_id = $1 and type = 'record.updated'`,
      [actor.workspaceId],
    );
    expect(events[0]!.n).toBe(keys.length);
  });
});
