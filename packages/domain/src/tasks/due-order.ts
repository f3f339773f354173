import { schema } from '@crm/db';
import { and, asc, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type DueKey, decodeCursor, dueCursor, encodeCursor } from '../shared/cursor.ts';
import { invalid } from '../shared/errors.ts';
import { type PageMeta, type Paging, type PagingInput, pageOf, resolvePaging } from '../shared/paging.ts';

/**
 * Keyset paging for `sort=dueAt`: soonest due first, tasks without a due time last, ties
 * broken by id. The (createdAt, id) cursor does not fit this order, so it has its own
 * (`dueCursor`), tagged so a cursor of one order is a 400 in the other.
 */
export type DuePaging =
  | Extract<Paging, { kind: 'offset' }>
  | { kind: 'cursor'; pageSize: number; after: DueKey };

/** Same rules as `resolvePaging` (page sizes, `page` with `cursor` is a 400), with the dueAt cursor. */
export function resolveDuePaging(input: PagingInput): DuePaging {
  const offset = resolvePaging({ page: input.page, pageSize: input.pageSize });
  if (input.cursor === undefined && offset.kind === 'offset') return offset;
  if (input.page !== undefined) throw invalid('page', 'cannot be combined with cursor');
  return { kind: 'cursor', pageSize: offset.pageSize, after: decodeCursor(input.cursor ?? '', dueCursor) };
}

const t = schema.tasks;

export const dueOrder: SQL[] = [sql`${t.dueAt} asc nulls last`, asc(t.id)];

/** Rows strictly after `key` in `dueOrder`. */
export function afterDueKey(key: DueKey): SQL | undefined {
  if (key.dueAt === null) return and(isNull(t.dueAt), gt(t.id, key.id));
  const at = new Date(key.dueAt);
  return or(gt(t.dueAt, at), and(eq(t.dueAt, at), gt(t.id, key.id)), isNull(t.dueAt));
}

/** `toPage` for this order: rows were fetched with `limit pageSize + 1`. */
export function toDuePage<Row extends { dueAt: Date | null; id: string }, Item>(
  rows: Row[],
  paging: DuePaging,
  serialize: (row: Row) => Item,
): { data: Item[]; meta: PageMeta } {
  return pageOf(rows, paging, serialize, (row) =>
    encodeCursor({ dueAt: row.dueAt?.toISOString() ?? null, id: row.id }, dueCursor),
  );
}
