import type { Database, schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import type { IdKind } from '../shared/ids.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import { type PagingInput, resolvePaging, toPage } from '../shared/paging.ts';
import { loadRecord } from './load-record.ts';

type ItemTable = typeof schema.comments | typeof schema.callLogs;

/**
 * A page of what hangs off a live record (comments, call logs), oldest first by when it was
 * logged (docs/api.md, "Comments and call logs"). An unknown or trashed record is NOT_FOUND.
 */
export async function findRecordItems<T extends ItemTable, Item>(
  db: Database,
  actor: Actor,
  table: T,
  input: PagingInput & { id: string },
  serialize: (row: T['$inferSelect']) => Item,
) {
  const paging = resolvePaging(input);
  await loadRecord(db, actor, input.id);
  const t = table as typeof schema.comments;
  const rows = (await db
    .select()
    .from(t)
    .where(
      and(
        eq(t.workspaceId, actor.workspaceId),
        eq(t.recordId, input.id),
        afterCursor(t.createdAt, t.id, paging, 'asc'),
      ),
    )
    .orderBy(...keysetOrder(t.createdAt, t.id, 'asc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0)) as T['$inferSelect'][];
  return toPage(rows, paging, serialize);
}

/**
 * One item hanging off a live record (a comment, a call log): NOT_FOUND when the record is
 * unknown or in Trash, or the item is not one of that record's.
 */
export async function getRecordItem<T extends ItemTable, Item>(
  db: Database,
  actor: Actor,
  table: T,
  input: { id: string; itemId: string },
  item: { kind: IdKind; name: string },
  serialize: (row: T['$inferSelect']) => Item,
): Promise<Item> {
  await loadRecord(db, actor, input.id);
  const row = await loadInWorkspace(db, table, actor.workspaceId, input.itemId, {
    ...item,
    where: eq(table.recordId, input.id),
  });
  return serialize(row);
}
