import type { Socket } from 'node:net';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { socketOf } from './internals/pg.ts';
import * as schema from './schema/index.ts';

type Schema = typeof schema;
export type Database = NodePgDatabase<Schema> & { $client: pg.Pool };
/** A database handle or an open transaction: domain services accept either. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

// Return `date` and numeric columns as strings: dates are calendar days, amounts are decimals.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export interface PoolOptions {
  connectionString: string;
  /** Most connections the pool opens. */
  max?: number;
  applicationName?: string;
  /**
   * `false` commits without waiting for the WAL flush. Only for data whose last moments may
   * be lost in a crash without harm, such as rate-limit counters.
   */
  synchronousCommit?: boolean;
}

/**
 * What every connection sets when it starts: no JIT compilation, which a PostgreSQL built with
 * LLVM otherwise starts for any statement the planner costs above `jit_above_cost`, however
 * short it runs: 85 ms of compiling for a `q` search that ran in 1 ms, when its parts were one
 * statement (docs/performance.md, "Search"). Nothing the service sends runs long enough to gain
 * from it.
 */
function sessionOptions(options: PoolOptions): string {
  return options.synchronousCommit === false ? '-c jit=off -c synchronous_commit=off' : '-c jit=off';
}

export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'crm',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    options: sessionOptions(options),
  });
  // An idle client that loses its connection is dropped by the pool, which emits here; without
  // a listener the process dies.
  pool.on('error', () => {});
  const sockets = new Set<Socket>();
  const lent = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => lent.add(client));
  pool.on('release', (_error, client) => lent.delete(client));
  pool.on('connect', (client) => {
    poolsOfClients.set(client, pool);
    guardPooledClient(client, lent);
    const socket = socketOf(client);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  openSockets.set(pool, sockets);
  return pool;
}

type Release = (error?: Error | boolean) => void;

/**
 * A client checked out of the pool (in a transaction, running a query, or listening) loses
 * its connection when the server restarts or goes away. The pool listens for errors only on
 * idle clients, so without this the client's 'error' event would end the process
 * (docs/operations.md, "Database restarts and outages").
 *
 * The client is also handed back to the pool at once, with the error, so the pool drops it
 * and opens a fresh connection when one is needed: a holder may never release a dead client
 * (drizzle does not when its `begin` fails), which would leave the pool a connection short
 * for good. The holder's statements on it fail ("not queryable"), and its own release later
 * does nothing.
 */
function guardPooledClient(client: pg.PoolClient, lent: WeakSet<pg.PoolClient>): void {
  // The pool sets `release` on every checkout; each is wrapped so that once it has been
  // called here on the holder's behalf, the holder's call does nothing.
  let checkout: Checkout | undefined;
  Object.defineProperty(client, 'release', {
    configurable: true,
    get: () => checkout?.release,
    set: (poolRelease: Release) => {
      checkout = new Checkout(poolRelease);
    },
  });
  client.on('error', (error) => {
    const current = checkout;
    // An idle client's error is the pool's: it drops the client itself.
    if (!current || current.releasedHere || !lent.has(client)) return;
    current.releasedHere = true;
    current.poolRelease(error);
  });
}

/**
 * One checkout of a pooled client: the release the pool gave it, and the one its holder is
 * given, which does nothing once the checkout was released on the holder's behalf. A class,
 * as a client is checked out for nearly every statement (docs/architecture.md, "Cost per
 * request").
 */
class Checkout {
  releasedHere = false;
  readonly release: Release;

  constructor(readonly poolRelease: Release) {
    this.release = holderRelease(this);
  }
}

function holderRelease(checkout: Checkout): Release {
  return (error) => {
    if (!checkout.releasedHere) checkout.poolRelease(error);
  };
}

const openSockets = new WeakMap<pg.Pool, Set<Socket>>();
const poolsOfClients = new WeakMap<pg.ClientBase, pg.Pool>();

/** The pool a connection belongs to, when `createPool` made it. */
export function poolOfClient(client: pg.ClientBase): pg.Pool | undefined {
  return poolsOfClients.get(client);
}

export function createDatabase(pool: pg.Pool): Database {
  return drizzle(pool, { schema, casing: 'snake_case' });
}

/**
 * `pool.end()` resolves before every socket has closed; waiting for the clients' `end`
 * events lets a test or a shutdown drop the database right after.
 */
export async function closePool(pool: pg.Pool): Promise<void> {
  if (!pool.ended) await pool.end();
  const sockets = [...(openSockets.get(pool) ?? [])];
  await Promise.all(
    sockets.map((socket) => (socket.closed ? undefined : new Promise((done) => socket.once('close', done)))),
  );
}
