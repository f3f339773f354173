import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import { folderCacheOf } from './folder-cache.ts';
import type { FolderRow } from './serialize.ts';

/**
 * Loads a folder of the caller's workspace or throws NOT_FOUND, also for a folder the caller
 * does not reach (a key limited to other folders, docs/api.md "Scopes"). `lock: 'share'` keeps its
 * fields fixed until the transaction ends (record writes); `'update'` is for changing them.
 * Without a lock, through the server's database handle (not a transaction), the folder comes
 * from the process's folder cache when it is kept there (folder-cache.ts).
 */
export function loadFolder(
  tx: Executor,
  actor: Actor,
  id: string,
  lock?: 'share' | 'update',
): Promise<FolderRow> {
  return loadThrough(tx, lock ? undefined : tx, actor, id, lock);
}

/**
 * `loadFolder` for a transaction of a request: from the folder cache of `db` (the server's
 * handle) when the folder is kept there, else read in `tx`, whose read the cache then keeps
 * as it would one of its own. Never through `db` itself: that asks the pool for a second
 * connection while the transaction holds one, and with as many such transactions at once as
 * the pool has connections, none gets one and each waits out the pool's connection timeout.
 */
export function loadFolderInTransaction(
  tx: Executor,
  db: Executor,
  actor: Actor,
  id: string,
): Promise<FolderRow> {
  return loadThrough(tx, db, actor, id);
}

/** Both loads: the folder from the cache of `cacheOf` when it has one and keeps the folder, else read in `tx`. */
async function loadThrough(
  tx: Executor,
  cacheOf: Executor | undefined,
  actor: Actor,
  id: string,
  lock?: 'share' | 'update',
): Promise<FolderRow> {
  if (!isId('folder', id) || !reachesFolder(actor, id)) throw notFound('Folder', id);
  const cache = cacheOf ? folderCacheOf(cacheOf) : undefined;
  if (cache) return cache.get(actor, id, () => readFolder(tx, actor, id));
  return readFolder(tx, actor, id, lock);
}

function readFolder(tx: Executor, actor: Actor, id: string, lock?: 'share' | 'update'): Promise<FolderRow> {
  return loadInWorkspace(tx, schema.folders, actor.workspaceId, id, {
    kind: 'folder',
    name: 'Folder',
    ...(lock ? { lock } : {}),
  });
}
