import type { Executor } from '@crm/db';
import { and, asc, desc, eq, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { missing } from './missing.ts';

/**
 * A text search in a list (docs/performance.md, "Search"). PostgreSQL cannot tell how many rows
 * a substring matches, so it cannot choose between reading the list in its order until the
 * page is full (fast when the term is common) and reading every match through the trigram
 * index and sorting them (fast when it is rare). The search does both, bounded, in that order:
 *
 * 1. the walk: the list in its order through the index that serves the order, at most `rows`
 *    index rows, each tested on what the index holds (`candidate`); the candidates, at most
 *    `reads` of them, are read from the table one after another and tested in full, and the
 *    walk stops as soon as the page is full. Both bounds are costs: an index row costs about
 *    a tenth of a candidate read from the table. When the walk found some matches but not
 *    enough, it walks on from its last match for twice the candidates that the rate it found
 *    them at says the rest of the page needs, when that is at most four times `reads` (a term
 *    in one row out of a hundred or so);
 * 2. the rest, when the page is still short: every match after the walk's last one (every
 *    match the walk passed is on the page), sorted. Its statement names the list's scope as
 *    `restScope` writes it (so that the trigram index can be asked for this workspace's or
 *    folder's matches), writes where it starts so that no index takes it for a range, and
 *    reads the matches in a subquery the planner does not look into (`offset 0`): the order's
 *    index could only serve it by reading the whole list, so the planner takes the trigram
 *    index, or the index of a selective filter when the list has one.
 *
 * Either way the page is exactly the first rows of the list that match, as one ORDER BY …
 * LIMIT over all of them would give. A later statement leaves out every id an earlier one
 * took: a record changed between two statements is listed once, where it was first seen.
 */
export interface TextWalk {
  /** The table's key, which every index holds: a candidate's row is read by it. */
  keys: PgColumn[];
  /**
   * The list's workspace condition. A read by key states it beside the key, so that a sharded
   * database sends the statement to the workspace's shard, and tests every other condition of
   * the list on the row it finds (`readByKey`).
   */
  workspace: SQL;
  /** The list's conditions that the order's index holds (workspace, Trash, folder): the walk reads nothing else. */
  scope: SQL[];
  /** True for a row that may match, from what the order's index holds; every matching row passes. */
  candidate: SQL;
  /** Index rows the walk reads at most; 0 when no index serves the order (no walk: the rest at once). */
  rows: number;
  /** Candidates the walk reads from the table at most. */
  reads: number;
  /**
   * The list's own conditions (findListPage's `scope`) as the rest's statement writes them:
   * so that the trigram index can serve it. Without it, as the list writes them.
   */
  restScope?: (SQL | undefined)[];
}

/** One key of an order: an expression, its direction, and how a value of it is written back into SQL. */
export interface OrderKey {
  expr: PgColumn | SQL;
  dir: 'asc' | 'desc';
  /** A value of the key as the driver gave it, as SQL of the key's type. */
  bind: (value: unknown) => SQL;
}

export interface WalkedSelect<Row> {
  db: Executor;
  table: PgTable;
  /** The table's id, which breaks ties and leaves out rows already taken. */
  id: PgColumn;
  columns: Record<string, PgColumn>;
  fromDriver: (raw: Record<string, unknown>) => Row;
  walk: TextWalk;
  /** Every condition of the list, the text match included. */
  where: SQL | undefined;
  /** `where` as the rest writes it (`TextWalk.restScope`). */
  restWhere: SQL | undefined;
  /** Conditions of this part of the list that the order's index holds too (whether the sort has a value). */
  within: SQL[];
  /** Where this part of the list starts: the rows after the cursor, in the order's index. */
  from?: SQL;
  order: OrderKey[];
  limit: number;
  /** Ids already on the page (from another part of it), left out. */
  exclude?: string[];
}

/** Rows after `edge` (the values of `order`'s keys, as `o0`, `o1` …) in that order. */
function afterRow(order: OrderKey[], edge: Record<string, unknown>): SQL {
  const dir = order[0]?.dir ?? missing('the first key of an order');
  const values = sql.join(
    order.map((o) => sql`${o.expr}`),
    sql`, `,
  );
  const bounds = sql.join(
    order.map((o, i) => o.bind(edge[`o${i}`])),
    sql`, `,
  );
  return sql`(${values}) ${sql.raw(dir === 'asc' ? '>' : '<')} (${bounds})`;
}

/** The column of a row read by key that says whether it meets the list's conditions (`readByKey`). */
const KEPT = 'kept_by_list';

/** Leaves out the rows of these ids (none: no condition). */
export function notAmong(id: PgColumn, ids: string[] | undefined): SQL | undefined {
  return ids && ids.length > 0 ? notInArray(id, ids) : undefined;
}

/** The first `limit` rows of `where` and `within` in `order`: the walk, then the rest if the page is short. */
export async function walkedSelect<Row>(spec: WalkedSelect<Row>): Promise<Row[]> {
  const { db, table, walk, order, limit } = spec;
  const dir = order[0]?.dir ?? missing('the first key of a walk');
  if (order.some((o) => o.dir !== dir)) throw new Error('a walk orders every key one way');
  const keyNames = walk.keys.map((_, i) => sql.raw(`"k${i}"`));
  const orderNames = order.map((_, i) => sql.raw(`"o${i}"`));
  const inOrder = sql.join(
    order.map((o) => (o.dir === 'asc' ? asc(o.expr) : desc(o.expr))),
    sql`, `,
  );
  /** ORDER BY of the keys by their names in a subquery `alias`. */
  const named = (alias: string) =>
    sql.join(
      order.map((o, i) => sql`${sql.raw(alias)}.${orderNames[i]} ${sql.raw(o.dir)}`),
      sql`, `,
    );

  /**
   * The row of the key that `alias` names (a candidate of the walk, a match of the rest), with
   * whether it meets every condition of the list (`KEPT`). It searches by the key and the
   * workspace alone and tests the rest on the row found: given to the planner as conditions to
   * search by, `trashed_at is null` made the lists' partial indexes (workspace, then a sort key)
   * candidates too, and in a workspace the statistics did not know yet (filled since the last
   * ANALYZE) the planner took one of them and read all of the workspace's entries for each row:
   * 2.5 to 3 s a search at 100,000 records instead of 6 to 11 ms (docs/performance.md, "Lookups
   * by id").
   */
  const readByKey = (alias: string) =>
    db
      .select({ ...spec.columns, [KEPT]: sql<boolean>`coalesce(${spec.where ?? sql`true`}, false)`.as(KEPT) })
      .from(table)
      .where(and(...walk.keys.map((k, i) => eq(k, sql`${sql.raw(alias)}.${keyNames[i]}`)), walk.workspace));

  /**
   * One step of the walk: the matches among the list's rows after `edge` (all of them without
   * one), at most `need` of them, reading at most `reads` candidates. Each level keeps the
   * order, so the outer limit stops the walk as soon as the page is full. A candidate's row is
   * read by its key behind `offset 0`: pulled up into the join, it let the planner read every
   * match of the pattern through the trigram index and hash them.
   */
  const walkStep = async (
    edge: Record<string, unknown> | undefined,
    reads: number,
    need: number,
    taken: string[],
  ) => {
    const walked = sql`select ${sql.join(
      [
        ...walk.keys.map((k, i) => sql`${k} as ${keyNames[i]}`),
        ...order.map((o, i) => sql`${o.expr} as ${orderNames[i]}`),
        sql`${walk.candidate} as "candidate"`,
      ],
      sql`, `,
    )} from ${table} where ${and(...walk.scope, ...spec.within, spec.from, edge ? afterRow(order, edge) : undefined, notAmong(spec.id, taken))} order by ${inOrder} limit ${walk.rows}`;
    const result = await db.execute(sql`
      select ${sql.join(
        order.map((_, i) => sql`w.${orderNames[i]}`),
        sql`, `,
      )}, r.*
        from (select * from (${walked}) as w0 where w0."candidate" order by ${named('w0')} limit ${reads}) as w
       cross join lateral (${readByKey('w')} offset 0) as r
       where r."${sql.raw(KEPT)}"
       order by ${named('w')}
       limit ${need}`);
    return result.rows as Record<string, unknown>[];
  };

  const exclude = spec.exclude ?? [];
  const rows = walk.rows > 0 ? await walkStep(undefined, walk.reads, limit, exclude) : [];
  const found = rows.length;
  if (found > 0 && found < limit) {
    // Found `found` times in at most `reads` candidates: the rest of the page is likely within
    // `(limit - found) * reads / found` more; twice that, so that the page is full most times.
    const likely = 2 * Math.ceil(((limit - found) * walk.reads) / found);
    if (likely <= 4 * walk.reads) {
      const taken = [...exclude, ...rows.map((row) => String(row.id))];
      rows.push(...(await walkStep(rows.at(-1), likely, limit - found, taken)));
    }
  }
  if (rows.length >= limit) return rows.map(spec.fromDriver);

  // The rest: every match after the walk's last one (or where the walk started), sorted. Where
  // it starts is written so that no index can take it for a range (`is true`): the order's
  // index would serve it by walking the order again.
  const edge = rows.at(-1);
  const start = edge ? afterRow(order, edge) : spec.from;
  const taken = [...exclude, ...rows.map((row) => String(row.id))];
  // The matches are sorted by their order's values and key alone, and only the page's rows are
  // read whole: sorting whole rows copied every match's values (1–2 KB of notes each) through
  // the sort.
  const matches = db
    .select({
      ...Object.fromEntries(order.map((o, i) => [`o${i}`, sql`${o.expr}`.as(`o${i}`)])),
      ...Object.fromEntries(walk.keys.map((k, i) => [`k${i}`, sql`${k}`.as(`k${i}`)])),
    })
    .from(table)
    .where(
      and(
        spec.restWhere,
        ...spec.within,
        start ? sql`(${start}) is true` : undefined,
        notAmong(spec.id, taken),
      ),
    );
  const rest = await db.execute(sql`
    select ${sql.join(
      order.map((_, i) => sql`m.${orderNames[i]}`),
      sql`, `,
    )}, r.*
      from (select * from (${matches} offset 0) as part order by ${named('part')} limit ${limit - rows.length}) as m
     cross join lateral (${readByKey('m')} offset 0) as r
     where r."${sql.raw(KEPT)}"
     order by ${named('m')}`);
  return [...rows, ...(rest.rows as Record<string, unknown>[])].map(spec.fromDriver);
}
