import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../folders/create-folder.ts';
import { attachFolderCache, FolderCache } from '../folders/folder-cache.ts';
import { addFolderField } from '../folders/index.ts';
import { createRecord } from '../records/create-record.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { linkRecords } from './link-records.ts';

// A pool of two connections, as small as a pool gets, with the server's folder cache attached.
let t: TestDb;
let cache: FolderCache;

beforeAll(async () => {
  t = await openTestDb({ max: 2 });
  cache = new FolderCache();
  cache.setListening(true);
  attachFolderCache(t.db, cache);
});
afterAll(async () => {
  cache?.close();
  await t?.close();
});

describe('links in a transaction', () => {
  it('read the folders they need in their own transaction: more link requests at once than the pool has connections all go through on a cold folder cache', async () => {
    const ws = await newWorkspace(t.db);
    const companies = await createFolder(t.db, ws.actor, { name: 'Companies', fields: [] });
    await addFolderField(t.db, ws.actor, {
      id: ws.peopleFolderId,
      key: 'clients',
      label: 'Clients',
      type: 'RELATION',
      relation: { folderId: companies.id, cardinality: 'MANY' },
      inverse: { key: 'suppliers', label: 'Suppliers', cardinality: 'MANY' },
    });
    const acme = (await createRecord(t.db, ws.actor, { folderId: companies.id, title: 'Acme' })).record;
    const people = await Promise.all(
      ['Ada', 'Grace', 'Alan', 'Edsger'].map(
        async (title) => (await createRecord(t.db, ws.actor, { folderId: ws.peopleFolderId, title })).record,
      ),
    );
    // Each request's transaction holds a connection while it reads the two folders; read
    // through the pool, those reads would wait for a connection none of them gives back.
    // The folder changes' notifications, as the server's LISTEN hands them to the cache.
    for (const folderId of [companies.id, ws.peopleFolderId])
      cache.notified(`${ws.actor.workspaceId} ${folderId}`);
    expect(cache.size).toBe(0);
    const answers = await Promise.all(
      people.map((person) =>
        linkRecords(t.db, ws.actor, [
          { ok: true, input: { from: person.id, field: 'clients', to: acme.id } },
        ]),
      ),
    );
    expect(answers.flat().map((a) => (a.ok ? a.created : a.error.message))).toEqual([true, true, true, true]);
    expect(cache.size).toBe(2);
  });
});
