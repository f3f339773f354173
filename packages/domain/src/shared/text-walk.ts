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

/**
 * The first `limit` rows of `where` and `within`, in `order`, by the walk and then the rest, in
 * one statement:
 * - `h`, the walk: the list's first `budget` rows in order, from its index; the candidates
 *   among them read by their key and tested in full, one after another until the page is
 *   full, where the limit stops the walk;
 * - the rest, only when the walk left the page short and the list goes on: the matches after
 *   the walk's last row (found again by an offset into the index: a window function numbering
 *   the walk cost twice the walk itself), found as PostgreSQL chooses (the trigram index, for
 *   a term this rare), then sorted. A subquery the planner does not look into (`offset 0`)
 *   keeps its plan from reading the list in order again; a condition on `h` alone (a one-time
 *   filter) skips it otherwise.
 */
export async function walkedSelect<Row>(spec: WalkedSelect<Row>): Promise<Row[]> {
  const { db, table, walk, order, limit } = spec;
  const dir = order[0]?.dir ?? missing('the first key of a walk');
  if (order.some((o) => o.dir !== dir)) throw new Error('a walk orders every key one way');
  const budget = walk.budget * limit;
  const walkWhere = and(...walk.scope, ...spec.within);
  const keyNames = walk.keys.map((_, i) => sql.raw(`"k${i}"`));
  const orderNames = order.map((_, i) => sql.raw(`"o${i}"`));
  const by = (key: OrderKey) => (key.dir === 'asc' ? asc(key.expr) : desc(key.expr));
  const inOrder = sql.join(order.map(by), sql`, `);
  const named = (alias: string) =>
    sql.join(
      order.map((o, i) => sql`${sql.raw(alias)}.${orderNames[i]} ${sql.raw(o.dir)}`),
      sql`, `,
    );
  const walked = sql`select ${sql.join(
    [
      ...walk.keys.map((k, i) => sql`${k} as ${keyNames[i]}`),
      ...order.map((o, i) => sql`${o.expr} as ${orderNames[i]}`),
      sql`${walk.candidate} as "candidate"`,
    ],
    sql`, `,
  )} from ${table} where ${walkWhere} order by ${inOrder} limit ${budget}`;
  // A candidate's row, read by its key. `offset 0` keeps this a read per candidate: pulled up
  // into the join, it let the planner read every match of the pattern through the trigram
  // index and hash them (7,853 rows and 95 ms for a name one record in 127 holds, at 1,000,000).
  const candidate = spec.db
    .select(spec.columns)
    .from(table)
    .where(and(...walk.keys.map((k, i) => eq(k, sql`w.${keyNames[i]}`)), spec.where));
  const sign = sql.raw(dir === 'asc' ? '>' : '<');
  const orderValues = sql.join(
    order.map((o) => sql`${o.expr}`),
    sql`, `,
  );
  const rest = spec.db
    .select({
      ...Object.fromEntries(order.map((o, i) => [`o${i}`, sql`${o.expr}`.as(`o${i}`)])),
      ...spec.columns,
    })
    .from(table)
    .where(
      and(
        spec.where,
        ...spec.within,
        sql`(${orderValues}) ${sign} (select ${orderValues} from ${table} where ${walkWhere} order by ${inOrder} offset ${budget - 1} limit 1)`,
      ),
    );
  const { rows } = await db.execute(sql`
    with h as materialized (
      select ${sql.join(
        order.map((_, i) => sql`w.${orderNames[i]}`),
        sql`, `,
      )}, r.*
        from (select * from (${walked}) as w0 where w0."candidate") as w
       cross join lateral (${candidate} offset 0) as r
       order by ${named('w')}
       limit ${limit})
    select * from (
      (select * from h)
      union all
      (select * from (${rest} offset 0) as rest
        where (select count(*) from h) < ${limit}
        order by ${named('rest')}
        limit ${limit})
    ) as page
     order by ${named('page')}
     limit ${limit}`);
  return rows.map(spec.fromDriver);
}
