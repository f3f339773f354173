import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { searchTextSql } from '../shared/search-text.ts';
import { announceFolderChange } from './folder-cache.ts';
import type { FolderRow } from './serialize.ts';

/**
 * Writes a folder's fields (and name), one row write, and answers the folder as saved. Every
 * change of a folder goes through here: it tells every process's folder cache (folder-cache.ts).
 */
export async function saveFields(
  tx: Executor,
  actor: Actor,
  id: string,
  fields?: FieldDefinition[],
  name?: string,
) {
  await announceFolderChange(tx, actor.workspaceId, id);
  const [row] = await tx
    .update(schema.folders)
    .set({ ...(fields ? { fields } : {}), ...(name ? { name } : {}), updatedAt: sql`now()` })
    .where(and(eq(schema.folders.workspaceId, actor.workspaceId), eq(schema.folders.id, id)))
    .returning();
  if (!row) missing('the row update … returning wrote (row)');
  return row;
}

/** Makes the search text of the folder's records again, after its TEXT fields changed. */
export async function refreshSearchText(tx: Executor, actor: Actor, folder: FolderRow) {
  const r = schema.records;
  await tx
    .update(r)
    .set({ searchText: searchTextSql(folder.fields) })
    .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.folderId, folder.id)));
}
