import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { folderCacheOf } from './folder-cache.ts';
import type { FolderRow } from './serialize.ts';

/**
 * Loads a folder of the caller's workspace or throws NOT_FOUND, also for a folder the caller
 * does not reach (a key limited to other folders, docs/api.md "Scopes"). `lock: 'share'` keeps its
 * fields fixed until the transaction ends (record writes); `'update'` is for changing them.
 * Without a lock, through the server's database handle (not a transaction), the folder comes
 * from the process's folder cache when it is kept there (folder-cache.ts).
 */
export async function loadFolder(
  tx: Executor,
  actor: Actor,
  id: string,
  lock?: 'share' | 'update',
): Promise<FolderRow> {
  if (!isId('folder', id) || !reachesFolder(actor, id)) throw notFound('Folder', id);
  const cache = lock ? undefined : folderCacheOf(tx);
  if (cache) return cache.get(actor, id, () => readFolder(tx, actor, id));
  return readFolder(tx, actor, id, lock);
}

async function readFolder(
  tx: Executor,
  actor: Actor,
  id: string,
  lock?: 'share' | 'update',
): Promise<FolderRow> {
  const query = tx
    .select()
    .from(schema.folders)
    .where(and(eq(schema.folders.workspaceId, actor.workspaceId), eq(schema.folders.id, id)));
  const rows = await (lock === 'share'
    ? query.for('share')
    : lock === 'update'
      ? query.for('update')
      : query);
  const row = rows[0];
  if (!row) throw notFound('Folder', id);
  return row;
}
