import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { type Executor, poolOfClient } from './client.ts';
import { connectionOf } from './internals/drizzle.ts';

const known = new WeakMap<pg.Pool | pg.ClientBase, Promise<boolean>>();

/**
 * Whether the tenant tables are sharded by workspace (Citus lists `events` in
 * `pg_dist_partition`), asked once per pool. The few statements that a sharded database
 * cannot run as written choose their shape by it; on one server they stay as they are
 * (docs/scaling.md, "Which queries reach one shard"). A transaction answers for its pool (or,
 * on a connection `createPool` did not make, for that connection). A process started before
 * the schema was distributed keeps its answer: restart it afterwards.
 */
export function isSharded(db: Executor | pg.Pool): Promise<boolean> {
  const target = connectionsOf(db);
  let answer = known.get(target);
  if (!answer) {
    answer = askSharded(target);
    known.set(target, answer);
    // A failed question (the database unreachable) is asked again next time.
    answer.catch(() => known.delete(target));
  }
  return answer;
}

/** The pool behind a handle or a transaction, or the transaction's own connection. */
function connectionsOf(db: Executor | pg.Pool): pg.Pool | pg.ClientBase {
  if (db instanceof pg.Pool) return db;
  const client = connectionOf(db);
  return ('totalCount' in client ? undefined : poolOfClient(client)) ?? client;
}

async function askSharded(pool: pg.Pool | pg.ClientBase): Promise<boolean> {
  const { rows } = await pool.query<{ citus: boolean }>(
    `select to_regclass('pg_catalog.pg_dist_partition') is not null as citus`,
  );
  if (!rows[0]?.citus) return false;
  const listed = await pool.query<{ sharded: boolean }>(
    `select exists (select 1 from pg_dist_partition where logicalrelid = 'public.events'::regclass) as sharded`,
  );
  return listed.rows[0]?.sharded === true;
}

/**
 * The current instant in a statement: `now()` on one server. A sharded database takes no
 * `now()` inside CASE or COALESCE of an UPDATE, nor in the SET of an upsert, so there the
 * instant of the call is passed in (docs/scaling.md).
 */
export function nowIn(sharded: boolean): SQL {
  return sharded ? sql`${new Date().toISOString()}::timestamptz` : sql`now()`;
}
