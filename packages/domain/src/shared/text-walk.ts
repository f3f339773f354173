import type { Executor } from '@crm/db';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { missing } from './missing.ts';

/**
 * A text search in a list, walked in the list's own order instead of left to the planner
 * (docs/performance.md, "Search"). PostgreSQL cannot tell how many rows a substring matches: it
 * guessed `gmail` (one record in nine) rare and read all its matches through the trigram index
 * to sort them (300 ms at 1,000,000 records), and guessed a rare name common and read the list
 * in order looking for it. So a page is found in up to two steps:
 *
 * 1. the walk: the first rows of the list in its order, at most `budget` of them, read from the
 *    index that serves the order, each tested on what that index holds (`candidate`); only the
 *    rows that pass are read from the table and tested in full. A common term fills the page
 *    within a few hundred rows;
 * 2. when the walk ends before the page is full and the list goes on, the rest: the rows after
 *    the walk's last one that match, found as PostgreSQL chooses (the trigram index, for a term
 *    this rare), then sorted. Its plan is kept from reading the list in order again by a
 *    subquery the planner does not look into (`offset 0`).
 *
 * Either way the page is exactly the first rows of the list that match, as one ORDER BY … LIMIT
 * over all of them would give.
 */
export interface TextWalk {
  /** The table's key, which the walk's index holds: rows are read from the table by it. */
  keys: PgColumn[];
  /** The list's conditions that the index holds (workspace, Trash, folder): the walk reads nothing else. */
  scope: SQL[];
  /** True for a row that may match, from the index alone; every matching row passes it. */
  candidate: SQL;
  /** Rows walked at most per row the page needs. */
  budget: number;
}

/** One key of an order: an expression and its direction (`id` breaks ties). */
export interface OrderKey {
  expr: PgColumn | SQL;
  dir: 'asc' | 'desc';
}

export interface WalkedSelect<Row> {
  db: Executor;
  table: PgTable;
  columns: Record<string, PgColumn>;
  fromDriver: (raw: Record<string, unknown>) => Row;
  walk: TextWalk;
  /** Every condition of the list, the text match included. */
  where: SQL | undefined;
  /** Conditions of this part of the list that the index holds too (its cursor, whether the sort has a value). */
  within: SQL[];
  order: OrderKey[];
  limit: number;
}

/** The first `limit` rows of `where` and `within`, in `order`, by the walk and then the rest. */
export async function walkedSelect<Row>(spec: WalkedSelect<Row>): Promise<Row[]> {
  const { db, table, walk, order, limit } = spec;
  const walkWhere = and(...walk.scope, ...spec.within);
  const budget = walk.budget * limit;
  const keyNames = walk.keys.map((_, i) => sql.raw(`"k${i}"`));
  const orderNames = order.map((_, i) => sql.raw(`"o${i}"`));
  const by = (key: OrderKey) => (key.dir === 'asc' ? asc(key.expr) : desc(key.expr));
  const walked = sql`select ${sql.join(
    [
      ...walk.keys.map((k, i) => sql`${k} as ${keyNames[i]}`),
      ...order.map((o, i) => sql`${o.expr} as ${orderNames[i]}`),
      sql`${walk.candidate} as "candidate"`,
    ],
    sql`, `,
  )} from ${table} where ${walkWhere} order by ${sql.join(order.map(by), sql`, `)} limit ${budget}`;
  const row = spec.db
    .select(spec.columns)
    .from(table)
    .where(and(...walk.keys.map((k, i) => eq(k, sql`w.${keyNames[i]}`)), spec.where));
  const outer = order.map((o, i) => sql`w.${orderNames[i]} ${sql.raw(o.dir)}`);
  const first = await db.execute(sql`
    select r.* from (select * from (${walked}) as w0 where w0."candidate") as w
      cross join lateral (${row}) as r
     order by ${sql.join(outer, sql`, `)}
     limit ${limit}`);
  const found = first.rows.map(spec.fromDriver);
  if (found.length >= limit) return found;

  // The walk's last row (none when the list ended within it), and the matches after it.
  const sign = (dir: 'asc' | 'desc') => (dir === 'asc' ? sql`>` : sql`<`);
  const dir = order[0]?.dir ?? missing('the first key of a walk');
  if (order.some((o) => o.dir !== dir)) throw new Error('a walk orders every key one way');
  const last = sql`(select ${sql.join(
    order.map((o) => sql`${o.expr}`),
    sql`, `,
  )} from ${table} where ${walkWhere} order by ${sql.join(order.map(by), sql`, `)} offset ${budget - 1} limit 1)`;
  const after = sql`(${sql.join(
    order.map((o) => sql`${o.expr}`),
    sql`, `,
  )}) ${sign(dir)} ${last}`;
  const rest = spec.db
    .select(spec.columns)
    .from(table)
    .where(and(spec.where, ...spec.within, after));
  const second = await db.execute(sql`
    select * from (${rest} offset 0) as ${table}
     order by ${sql.join(order.map(by), sql`, `)}
     limit ${limit - found.length}`);
  return found.concat(second.rows.map(spec.fromDriver));
}
