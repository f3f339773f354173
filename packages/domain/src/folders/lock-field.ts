import type { Executor } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { loadFolder } from './load-folder.ts';
import { lockFolders } from './relation-field-changes.ts';
import { isRelation } from './relation-fields.ts';

/**
 * The folder of a field, locked FOR UPDATE, and the field (404 when there is none). For a
 * RELATION field the target folder is locked too, both in id order, before either is read
 * for good: two changes of one pair of folders then wait for each other rather than deadlock.
 */
export async function lockField(tx: Executor, actor: Actor, folderId: string, key: string) {
  const notFound = () => new DomainError('NOT_FOUND', `Field ${key} not found in folder ${folderId}`);
  const peek = (await loadFolder(tx, actor, folderId)).fields.find((f) => f.key === key);
  if (!peek) throw notFound();
  const ids = [{ id: folderId, path: 'id' }];
  if (isRelation(peek)) ids.push({ id: peek.relation.folderId, path: 'relation.folderId' });
  const folders = await lockFolders(tx, actor, ids);
  const folder = folders.get(folderId) ?? missing('folders.get(folderId)');
  const current = folder.fields.find((f) => f.key === key);
  if (!current) throw notFound();
  return { folder, current, folders };
}
