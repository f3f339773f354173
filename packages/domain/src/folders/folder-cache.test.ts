import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { addFolderField } from './add-folder-field.ts';
import { attachFolderCache, FolderCache } from './folder-cache.ts';
import { loadFolder } from './load-folder.ts';

let t: TestDb;
const caches: FolderCache[] = [];

beforeAll(async () => {
  t = await openTestDb();
});
afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
});
afterAll(() => t?.close());

/** A cache as the server runs it while its LISTEN is in effect, with a clock the test moves. */
function listeningCache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { now: Date.now() };
  const cache = new FolderCache({ ...options, now: () => clock.now });
  cache.setListening(true);
  caches.push(cache);
  return { cache, clock };
}

/** A load that counts how often the database was read. */
function counting(actor: Parameters<typeof loadFolder>[1], id: string) {
  const reads = { n: 0 };
  const load = () => {
    reads.n++;
    return loadFolder(t.db, actor, id);
  };
  return { reads, load };
}

const keys = (row: { fields: { key: string }[] }) => row.fields.map((f) => f.key);

describe('FolderCache', () => {
  it('answers a kept folder from memory until its time is up', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const { cache, clock } = listeningCache({ ttlMs: 1_000 });
    const { reads, load } = counting(actor, peopleFolderId);
    await cache.get(actor, peopleFolderId, load);
    await cache.get(actor, peopleFolderId, load);
    expect(reads.n).toBe(1);
    clock.now += 1_000;
    await cache.get(actor, peopleFolderId, load);
    expect(reads.n).toBe(2);
  });

  it('keeps nothing while it does not listen, and forgets everything when it stops', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const cache = new FolderCache();
    caches.push(cache);
    const { reads, load } = counting(actor, peopleFolderId);
    await cache.get(actor, peopleFolderId, load);
    await cache.get(actor, peopleFolderId, load);
    expect(reads.n).toBe(2);
    cache.setListening(true);
    await cache.get(actor, peopleFolderId, load);
    expect(cache.size).toBe(1);
    cache.setListening(false);
    expect(cache.size).toBe(0);
  });

  it('drops a folder on its notification, and everything on one it does not understand', async () => {
    const a = await newWorkspace(t.db);
    const b = await newWorkspace(t.db);
    const { cache } = listeningCache();
    await cache.get(a.actor, a.peopleFolderId, () => loadFolder(t.db, a.actor, a.peopleFolderId));
    await cache.get(b.actor, b.peopleFolderId, () => loadFolder(t.db, b.actor, b.peopleFolderId));
    cache.notified(`${a.actor.workspaceId} ${a.peopleFolderId}`);
    expect(cache.size).toBe(1);
    cache.notified('');
    expect(cache.size).toBe(0);
  });

  it('keeps a folder this process is changing out of memory until the change is announced back', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const { cache } = listeningCache();
    // The server's handle: reads through it go through the cache.
    attachFolderCache(t.db, cache);
    expect(keys(await loadFolder(t.db, actor, peopleFolderId))).toEqual(['company', 'lifecycle']);
    expect(cache.size).toBe(1);
    await addFolderField(t.db, actor, { id: peopleFolderId, key: 'tier', label: 'Tier', type: 'TEXT' });
    // Written and committed: this process reads the new fields at once, and does not keep
    // them until the notification of the change comes back (another process may still read
    // the folder as it was until then).
    expect(cache.size).toBe(0);
    expect(keys(await loadFolder(t.db, actor, peopleFolderId))).toEqual(['company', 'lifecycle', 'tier']);
    expect(cache.size).toBe(0);
    cache.notified(`${actor.workspaceId} ${peopleFolderId}`);
    await loadFolder(t.db, actor, peopleFolderId);
    expect(cache.size).toBe(1);
    // A read with a lock, or in a transaction, never comes from memory.
    await t.query(`update folders set name = 'Contacts' where id = $1`, [peopleFolderId]);
    expect((await loadFolder(t.db, actor, peopleFolderId)).name).toBe('People');
    await t.db.transaction(async (tx) => {
      expect((await loadFolder(tx, actor, peopleFolderId, 'share')).name).toBe('Contacts');
      expect((await loadFolder(tx, actor, peopleFolderId)).name).toBe('Contacts');
    });
  });

  it('does not keep a read that overlapped a change', async () => {
    const { actor, peopleFolderId } = await newWorkspace(t.db);
    const { cache } = listeningCache();
    await cache.get(actor, peopleFolderId, async () => {
      const row = await loadFolder(t.db, actor, peopleFolderId);
      cache.notified(`${actor.workspaceId} other`);
      return row;
    });
    expect(cache.size).toBe(0);
  });

  it('makes room by dropping the folder read longest ago', async () => {
    const workspaces = await Promise.all([1, 2, 3].map(() => newWorkspace(t.db)));
    const { cache } = listeningCache({ maxEntries: 2 });
    for (const { actor, peopleFolderId } of workspaces) {
      await cache.get(actor, peopleFolderId, () => loadFolder(t.db, actor, peopleFolderId));
    }
    expect(cache.size).toBe(2);
    const first = workspaces[0]!;
    const { reads, load } = counting(first.actor, first.peopleFolderId);
    await cache.get(first.actor, first.peopleFolderId, load);
    expect(reads.n).toBe(1);
  });
});
