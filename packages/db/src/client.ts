import type { Socket } from 'node:net';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
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

export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'crm',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    ...(options.synchronousCommit === false ? { options: '-c synchronous_commit=off' } : {}),
  });
  // An idle client that loses its connection emits here; without a listener the process dies.
  pool.on('error', () => {});
  const sockets = new Set<Socket>();
  pool.on('connect', (client) => {
    const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  openSockets.set(pool, sockets);
  return pool;
}

const openSockets = new WeakMap<pg.Pool, Set<Socket>>();

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
