import { and, asc, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Paging } from './paging.ts';

export type ListOrder = 'asc' | 'desc';

/**
 * Keyset paging on (createdAt, id): the condition that selects rows after the cursor, and
 * the matching ORDER BY. Newest first is `desc`; comments and calls list oldest first (`asc`).
 */
export function afterCursor(
  createdAt: PgColumn,
  id: PgColumn,
  paging: Paging,
  order: ListOrder,
): SQL | undefined {
  if (paging.kind !== 'cursor') return undefined;
  const at = new Date(paging.after.createdAt);
  const beyond = order === 'desc' ? lt : gt;
  return or(beyond(createdAt, at), and(eq(createdAt, at), beyond(id, paging.after.id)));
}

export function keysetOrder(createdAt: PgColumn, id: PgColumn, order: ListOrder): SQL[] {
  return order === 'desc' ? [desc(createdAt), desc(id)] : [asc(createdAt), asc(id)];
}
