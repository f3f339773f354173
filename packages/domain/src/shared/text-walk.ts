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
 *    within a few hundred rows, in one statement. With `firstStep` (a tenth of the budget for
 *    records), the walk stops after that many rows first, and goes on only when what it found
 *    there promises a full page within the budget: a rare term goes to step 2 after 1,020 rows
 *    instead of 10,200 for a page of 50;
 * 2. when the walk leaves the page short, the rest: the matches after the walk's last match
 *    (every match the walk passed is on the page already), found through the trigram index and
 *    sorted, a statement for each part while the page is short. For a list in order of
 *    creation the index holds the period of each row's creation too (`period`): the rest of
 *    the period where the walk stopped is read first, then the period before it when the walk
 *    stopped in the first half of its period, then all that is older. A term absent from the
 *    newest rows but common before them (`gmail` after a day of `@example.com` records) costs
 *    the read of a period's matches instead of all of them.
 *    Each part is a subquery the planner does not look into (`offset 0`), which keeps its plan
 *    from reading the list in order again.
 *
 * Either way the page is exactly the first rows of the list that match, as one ORDER BY … LIMIT
 * over all of them would give. Each statement reads its own snapshot, and the parts are
 * disjoint slices of the order, so a record changed between two statements is at worst missed
 * or listed by this page as it was, as with a change between two pages.
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
  /**
   * Rows per row the page needs of a first, shorter step of the walk; after it the walk goes on
   * only when the matches it found promise a full page within `budget`. Without it, the walk is
   * one step.
   */
  firstStep?: number;
  /**
   * The list's own conditions (findListPage's `scope`) as the statements of the rest write
   * them, when not as the list does: the same rows, written so that the trigram index is not
   * asked for what would not narrow its read (find-records.ts, `restScope`).
   */
  restScope?: (SQL | undefined)[];
  /**
   * The period of the first key of the order that the trigram index holds as a key; given only
   * when that key is the one it is a period of.
   */
  period?: Period;
}

/** A period of an instant column that the trigram index holds. */
export interface Period {
  /** The period an instant falls in (a whole number, rising with time), written as the index's key is. */
  of: (at: SQL) => SQL;
  /** The first instant of a period. */
  start: (period: SQL) => SQL;
  /** Its length in seconds; periods are whole multiples of it since 1970. */
  seconds: number;
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
  /** `where` as the statements of the rest write it (`TextWalk.restScope`); `where` without one. */
  restWhere?: SQL | undefined;
  /** Conditions of this part of the list that the index holds too (its cursor, whether the sort has a value). */
  within: SQL[];
  order: OrderKey[];
  limit: number;
}

/**
 * The first `limit` rows of `where` and `within`, in `order`, by the walk and then the rest,
 * each part a statement sent only while the page is short:
 * - the walk: the list's first `budget` rows in order, from its index; the candidates among
 *   them read by their key and tested in full, one after another until the page is full,
 *   where the limit stops the walk; with `firstStep`, in two statements, the second only when
 *   the first found enough matches to promise a full page within the budget;
 * - the edge, the walk's last match: every match the walk passed is on the page when the page
 *   is short, so the rest starts after it (or where the walk started, when it found none);
 * - with `period`: the matches in the period the edge falls in (after the edge), then, when the
 *   edge is in the first half of its period, those in the period before it (after it, in
 *   ascending order), each read through the trigram index by its period key, and sorted;
 * - the rest of the list: past those periods, or after the edge without them; through the
 *   trigram index, sorted.
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
  const after = sql.raw(dir === 'asc' ? '>' : '<');
  const orderValues = sql.join(
    order.map((o) => sql`${o.expr}`),
    sql`, `,
  );
  /** Rows after `edge` in the list's order (all of them without one). */
  const afterRow = (edge: Record<string, unknown> | undefined) =>
    edge
      ? sql`(${orderValues}) ${after} (${sql.join(
          order.map((_, i) => sql`${edge[`o${i}`]}`),
          sql`, `,
        )})`
      : undefined;
  // A candidate's row, read by its key. `offset 0` keeps this a read per candidate: pulled up
  // into the join, it let the planner read every match of the pattern through the trigram
  // index and hash them (7,853 rows and 95 ms for a name one record in 127 holds, at 1,000,000).
  const candidate = spec.db
    .select(spec.columns)
    .from(table)
    .where(and(...walk.keys.map((k, i) => eq(k, sql`w.${keyNames[i]}`)), spec.where));
  const first = order[0]?.expr ?? missing('the first key of a walk');
  const { period } = walk;

  /**
   * One step of the walk: at most `walkRows` rows of the list after `edge`, the matches among
   * them, at most `need`. With `head`, the statement gives the list's first instant too (as
   * `walk_head` on every row, and as the only value of a row without a match when none
   * matched), which is where the periods are counted from when the walk finds nothing.
   */
  const walkStep = async (
    walkRows: number,
    need: number,
    edge: Record<string, unknown> | undefined,
    head: boolean,
  ) => {
    const walked = sql`select ${sql.join(
      [
        ...walk.keys.map((k, i) => sql`${k} as ${keyNames[i]}`),
        ...order.map((o, i) => sql`${o.expr} as ${orderNames[i]}`),
        sql`${walk.candidate} as "candidate"`,
      ],
      sql`, `,
    )} from ${table} where ${and(walkWhere, afterRow(edge))} order by ${inOrder} limit ${walkRows}`;
    const page = sql`
      select ${sql.join(
        order.map((_, i) => sql`w.${orderNames[i]}`),
        sql`, `,
      )}, true as "walk_match", r.*
        from (select * from (${walked}) as w0 where w0."candidate") as w
       cross join lateral (${candidate} offset 0) as r
       order by ${named('w')}
       limit ${need}`;
    const result = await db.execute(
      head
        ? sql`select h."at" as "walk_head", p.*
                from (select ${first} as "at" from ${table} where ${walkWhere} order by ${inOrder} limit 1) as h
                left join lateral (${page}) as p on true`
        : page,
    );
    const all = result.rows as Record<string, unknown>[];
    return {
      matches: all.filter((row) => row.walk_match === true),
      head: all[0]?.walk_head as string | undefined,
    };
  };

  // The walk, in up to two steps (`firstStep`). A term that fills the page in the first is
  // done; one found there often enough to fill the page within the budget is walked on from
  // its last match. Any other goes to the trigram index at once: a rare term, or one absent
  // from the newest rows, would walk the whole budget for nothing. (Sending the terms the
  // first step finds but seldom, one row in 50 to 200, to the trigram index too was measured
  // and left: the period of the newest rows can hold a day of imports, and reading its
  // matches cost more than the walk; docs/performance.md, "Search".)
  const firstRows = walk.firstStep ? walk.firstStep * limit : budget;
  const step = await walkStep(firstRows, limit, undefined, period !== undefined);
  const rows = step.matches;
  if (period && step.head === undefined) return []; // the list is empty
  if (rows.length > 0 && rows.length < limit && firstRows < budget) {
    const likelyRows = ((limit - rows.length) * firstRows) / rows.length;
    if (likelyRows <= budget - firstRows) {
      rows.push(...(await walkStep(budget - firstRows, limit - rows.length, rows.at(-1), false)).matches);
    }
  }
  if (rows.length >= limit) return rows.map(spec.fromDriver);

  // The rest, a part at a time while the page is short. Every match the walk passed is on the
  // page, so the rest starts after its last row (the edge), or where the walk started.
  const edge = rows.at(-1);
  const afterEdge = afterRow(edge);
  const parts: (SQL | undefined)[] = [];
  if (period) {
    // Where the periods are counted from: the edge, or the list's first row (after the cursor)
    // when the walk found no match.
    const at = (edge?.o0 as string | undefined) ?? step.head ?? missing('the first instant of a list');
    const atSql = sql`${at}::timestamptz`;
    // Period `n` from the edge's: the edge's own, then the one before it (after it, in
    // ascending order), …
    const nth = (n: number) =>
      n === 0
        ? period.of(atSql)
        : sql`${period.of(atSql)} ${sql.raw(dir === 'asc' ? '+' : '-')} ${sql.raw(String(n))}`;
    // Periods are read one at a time until they reach half a period past the edge: the edge's
    // own, and the next one too when the edge is near its start (its end, in ascending order).
    const into = (new Date(at).getTime() / 1000) % period.seconds;
    const reached = dir === 'asc' ? period.seconds - into : into;
    const count = reached < period.seconds / 2 ? 2 : 1;
    for (let n = 0; n < count; n++) {
      parts.push(and(sql`${period.of(sql`${first}`)} = ${nth(n)}`, n === 0 ? afterEdge : undefined));
    }
    // The rest starts at the first instant past the last of them, in the list's order.
    parts.push(
      dir === 'asc'
        ? sql`${first} >= ${period.start(nth(count))}`
        : sql`${first} < ${period.start(nth(count - 1))}`,
    );
  } else {
    parts.push(afterEdge);
  }
  for (const part of parts) {
    const select = spec.db
      .select({
        ...Object.fromEntries(order.map((o, i) => [`o${i}`, sql`${o.expr}`.as(`o${i}`)])),
        ...spec.columns,
      })
      .from(table)
      .where(and(walk.restScope ? spec.restWhere : spec.where, ...spec.within, part));
    const more = await db.execute(sql`
      select * from (${select} offset 0) as part
       order by ${named('part')}
       limit ${limit - rows.length}`);
    rows.push(...(more.rows as Record<string, unknown>[]));
    if (rows.length >= limit) break;
  }
  return rows.map(spec.fromDriver);
}
