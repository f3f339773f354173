import type { Executor } from '@crm/db';
import { and, asc, count, desc, isNull, not, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { encodeCursor } from './cursor.ts';
import { invalid } from './errors.ts';
import { conditionSql, type ListField } from './list-fields.ts';
import { conditionError, type FilterTree, fieldsOf } from './list-filter.ts';
import {
  afterId,
  afterValue,
  type Cursor,
  decodeListCursor,
  encodeListCursor,
  fullOrder,
  hasValue,
  type ListSort,
  sortBound,
} from './list-sort.ts';
import { missing } from './missing.ts';
import { type PageMeta, resolvePaging } from './paging.ts';
import { pageMeta } from './schemas.ts';
import { notAmong, type OrderKey, type TextWalk, walkedSelect } from './text-walk.ts';

/**
 * Filters, sorts, counts and keyset cursors of records, deals and tasks: one implementation
 * over per-resource field tables (docs/api.md, "Filters, sorts and counts").
 */

/** What fields a list has: `fieldOf` returns undefined for a name that is not one. */
export interface FieldTable {
  fieldOf(name: string): ListField | undefined;
  /** Names for the error message of an unknown field. */
  known: string;
}

export interface ListRequest {
  filter?: FilterTree | undefined;
  sort: ListSort;
  /**
   * The list's first order (newest first) without a filter: its cursor keeps the form it had
   * before sorts and filters existed, so cursors handed out earlier still work.
   */
  legacy: boolean;
  /** Fingerprint of the sort and every filter (list-sort.ts), carried by the cursor. */
  print: string;
  page?: number | undefined;
  pageSize?: number | undefined;
  cursor?: string | undefined;
  /** `true` counts the matches exactly (`meta.total`), `estimate` asks the planner (`meta.totalEstimate`). */
  count?: CountMode;
}

export interface ListMeta extends PageMeta {
  total?: number;
  totalEstimate?: number;
}

/** How a list counts what its filters match: exactly, by the planner's estimate, or not at all. */
export type CountMode = boolean | 'estimate' | undefined;

/** The `count` query parameter of a list of `noun` (docs/api.md, "Counts"). */
export const countParam = (noun: string) =>
  z
    .enum(['true', 'false', 'estimate'])
    .optional()
    .meta({
      description: `\`true\` adds \`meta.total\`, the exact number of ${noun} the filters match (a count of them); \`estimate\` adds \`meta.totalEstimate\` instead, PostgreSQL's estimate of that number, which costs no count.`,
    });

/** The count a `count` parameter asks for. */
export const countModeOf = (count: 'true' | 'false' | 'estimate' | undefined): CountMode =>
  count === 'estimate' ? 'estimate' : count === 'true';

const listMeta = pageMeta
  .extend({
    total: z
      .number()
      .int()
      .optional()
      .meta({ description: 'With `count=true`: how many items the filters match, on every page.' }),
    totalEstimate: z.number().int().optional().meta({
      description:
        "With `count=estimate`: the planner's estimate of how many items the filters match, from the table's statistics; it may be off, by a lot for a rare text search.",
    }),
  })
  .meta({ id: 'ListMeta' });

export const filteredListEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: listMeta });

/** Every field the filter names must be one of the table's (400 naming the condition otherwise). */
export function checkFilterFields(tree: FilterTree | undefined, table: FieldTable): void {
  for (const name of fieldsOf(tree)) {
    if (table.fieldOf(name)) continue;
    throw invalid(`filter[${name}]`, `${name} is not a field to filter on; use ${table.known}`);
  }
}

/** Lets each condition of the filter whose field asks for it read what its SQL needs (ListField.prepare). */
async function prepareFilter(db: Executor, tree: FilterTree | undefined, table: FieldTable): Promise<void> {
  if (!tree) return;
  if (tree.kind === 'leaf') {
    await table.fieldOf(tree.field)?.prepare?.(db, tree);
    return;
  }
  for (const node of tree.kind === 'not' ? [tree.node] : tree.nodes) await prepareFilter(db, node, table);
}

/** The filter as SQL; `not` is pushed down to the conditions, which know what their negation means. */
export function filterSql(tree: FilterTree, table: FieldTable, negated = false): SQL {
  switch (tree.kind) {
    case 'leaf': {
      const field = table.fieldOf(tree.field);
      if (!field) throw conditionError(tree, 'is not a field to filter on');
      return conditionSql(field, tree, negated);
    }
    case 'not':
      return filterSql(tree.node, table, !negated);
    default: {
      const parts = tree.nodes.map((n) => filterSql(n, table, negated));
      const all = (tree.kind === 'and') !== negated;
      return (all ? and(...parts) : or(...parts)) as SQL;
    }
  }
}

/**
 * One page of a list. Rows with a value for the sort are read first (in the sort's order, which an
 * index on the sort expression serves in either direction), then, if the page is not full,
 * those without one, by id. A cursor is the last row's sort value and id; a later page starts
 * strictly after it, so a row that existed unchanged for a whole walk is returned exactly once.
 * `page` beyond the first reads all rows in one ORDER BY … NULLS LAST with OFFSET, or, with a
 * text search, the rows before the page and the page as a cursor would.
 */
export async function findListPage<Row extends { id: string }, Item>(
  db: Executor,
  spec: {
    table: PgTable;
    /** The columns to select (default all of `table`): leave out what `serialize` drops. */
    columns?: Record<string, PgColumn>;
    /**
     * Makes a row of `columns` from the driver's row (snake_case names, instants as text):
     * given, pages are read without the ORM's row mapping, which costs more than the query
     * on a page of 50.
     */
    fromDriver?: (raw: Record<string, unknown>) => Row;
    id: PgColumn;
    /** The list's own conditions: workspace, folder, trash, the older query parameters. */
    scope: (SQL | undefined)[];
    fields: FieldTable;
    request: ListRequest;
    serialize: (row: Row) => Item;
    /** A text search among the rows, walked in the list's order (text-walk.ts); needs `columns` and `fromDriver`. */
    walk?: TextWalk;
  },
): Promise<{ data: Item[]; meta: ListMeta }> {
  const { request, id } = spec;
  const { sort } = request;
  const paging = resolvePaging({ page: request.page, pageSize: request.pageSize });
  const size = paging.pageSize;
  const offset = paging.kind === 'offset' ? paging.offset : 0;
  const cursor = request.cursor ? readCursor(request) : undefined;
  await prepareFilter(db, request.filter, spec.fields);
  const filtered = request.filter ? filterSql(request.filter, spec.fields) : undefined;
  const where = and(...spec.scope, filtered);
  // The list's conditions as a text search's rest and count write them (text-walk.ts).
  const restWhere = spec.walk?.restScope ? and(...spec.walk.restScope, filtered) : where;
  const select = (condition: SQL | undefined, order: SQL[], limit: number, offset = 0) => {
    const built = (spec.columns ? db.select(spec.columns) : db.select())
      .from(spec.table)
      .where(condition)
      .orderBy(...order)
      .limit(limit);
    const query = offset > 0 ? built.offset(offset) : built;
    const { fromDriver } = spec;
    if (fromDriver) return db.execute(query).then((result) => result.rows.map(fromDriver));
    return query as unknown as Promise<Row[]>;
  };

  /**
   * Rows of the list in `keys` order among those `within` also holds and after `from` (the
   * cursor), none of `exclude`'s ids, through the text walk when there is one.
   */
  const part = (
    within: SQL | undefined,
    from: SQL | undefined,
    keys: OrderKey[],
    limit: number,
    exclude: string[] = [],
  ): Promise<Row[]> => {
    const { walk, columns, fromDriver } = spec;
    if (!walk || !columns || !fromDriver) {
      const by = keys.map((k) => (k.dir === 'asc' ? asc(k.expr) : desc(k.expr)));
      return select(and(where, within, from, notAmong(id, exclude)), by, limit);
    }
    return walkedSelect({
      db,
      table: spec.table,
      id,
      columns,
      fromDriver,
      walk,
      where,
      restWhere,
      within: within ? [within] : [],
      ...(from ? { from } : {}),
      order: keys,
      limit,
      exclude,
    });
  };

  /**
   * The list's first `limit` rows after the cursor: those with a value for the sort, in its
   * order, then those without one, by id. The second part leaves out the ids of the first, so
   * that a row whose value was removed between the two statements is not listed twice.
   */
  const inOrder = async (limit: number): Promise<Row[]> => {
    let rows: Row[] = [];
    const nullable = sort.field.nullable;
    const idKey: OrderKey = { expr: id, dir: sort.dir, bind: (value) => sql`${value}::text` };
    if (cursor?.value !== null) {
      const after = cursor ? afterValue(sort, id, cursor) : undefined;
      const sortKey: OrderKey = {
        expr: sort.field.expr,
        dir: sort.dir,
        bind: (value) => sortBound(sort.field, value),
      };
      rows = await part(nullable ? hasValue(sort) : undefined, after, [sortKey, idKey], limit);
    }
    if (nullable && rows.length < limit) {
      const after = cursor?.value === null ? afterId(sort, id, cursor) : undefined;
      const none = sort.field.present ? not(sort.field.present) : isNull(sort.field.expr);
      const taken = rows.map((row) => row.id);
      rows = rows.concat(await part(none, after, [idKey], limit - rows.length, taken));
    }
    return rows;
  };

  let rows: Row[];
  if (cursor || offset === 0) rows = await inOrder(size + 1);
  // A later page by number: through the walk, the rows before it and the page (text search);
  // otherwise one ORDER BY … NULLS LAST with OFFSET.
  else if (spec.walk) rows = (await inOrder(offset + size + 1)).slice(offset);
  else rows = await select(where, fullOrder(sort, id), size + 1, offset);

  const hasMore = rows.length > size;
  const visible = hasMore ? rows.slice(0, size) : rows;
  const last = visible[visible.length - 1];
  const meta: ListMeta = {
    page: cursor || paging.kind !== 'offset' ? null : paging.page,
    pageSize: size,
    hasMore,
    nextCursor: hasMore && last ? cursorOf(request, last) : null,
    nextUrl: null,
  };
  await addCount(db, meta, request.count, spec.table, restWhere);
  return { data: visible.map(spec.serialize), meta };
}

/** `meta.total` or `meta.totalEstimate`, as `count` asks. */
export async function addCount(
  db: Executor,
  meta: ListMeta,
  count: CountMode,
  table: PgTable,
  where: SQL | undefined,
): Promise<void> {
  if (count === 'estimate') meta.totalEstimate = await estimateRows(db, table, where);
  else if (count) meta.total = await countRows(db, table, where);
}

/**
 * `meta.totalEstimate`: the rows PostgreSQL's planner expects `where` to match, read from
 * `EXPLAIN` of the count without running it (docs/api.md, "Counts"). An import asks it too,
 * to tell whether the statistics know its workspace (keepStatistics).
 */
export async function estimateRows(db: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  const plan = await db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    sql`explain (format json) ${db.select({ one: sql`1` }).from(table).where(where)}`,
  );
  const rows = plan.rows[0]?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' && Number.isFinite(rows) ? Math.max(0, Math.round(rows)) : 0;
}

/** `meta.total`: the rows `where` matches, whatever the page. */
async function countRows(db: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  const [counted] = await db.select({ total: count() }).from(table).where(where);
  return counted?.total ?? 0;
}

function readCursor(request: ListRequest): Cursor {
  if (request.page !== undefined) throw invalid('page', 'cannot be combined with cursor');
  if (!request.legacy)
    return decodeListCursor(request.cursor ?? missing('request.cursor'), request.print, request.sort);
  const paging = resolvePaging({ pageSize: request.pageSize, cursor: request.cursor });
  if (paging.kind !== 'cursor') throw invalid('cursor', 'is not a cursor returned by this API');
  return { value: paging.after.createdAt, id: paging.after.id };
}

function cursorOf(request: ListRequest, row: { id: string }): string {
  const value = request.sort.field.valueOf(row as Record<string, unknown>);
  if (request.legacy) return encodeCursor({ createdAt: value as string, id: row.id });
  return encodeListCursor(request.print, value, row.id);
}
