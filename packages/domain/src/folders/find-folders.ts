import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, desc, eq, inArray, lt, or } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { type PagingInput, resolvePaging, toPage } from '../shared/paging.ts';
import { serializeFolder } from './serialize.ts';

/** A page of the workspace's folders with their fields, newest first. */
export async function findFolders(db: Database, actor: Actor, input: PagingInput) {
  const paging = resolvePaging(input);
  const f = schema.folders;
  const after =
    paging.kind === 'cursor'
      ? or(
          lt(f.createdAt, new Date(paging.after.createdAt)),
          and(eq(f.createdAt, new Date(paging.after.createdAt)), lt(f.id, paging.after.id)),
        )
      : undefined;
  const rows = await db
    .select()
    .from(f)
    .where(
      and(
        eq(f.workspaceId, actor.workspaceId),
        after,
        // A key limited to folders sees only those (docs/api.md, "Scopes").
        actor.folderIds === null ? undefined : inArray(f.id, [...actor.folderIds]),
      ),
    )
    .orderBy(desc(f.createdAt), desc(f.id))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  return toPage(rows, paging, serializeFolder);
}
