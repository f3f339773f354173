import type pg from 'pg';
import type { Executor } from '../client.ts';

/**
 * The one place that reaches into drizzle-orm past its declared types
 * (docs/decisions/0010-two-patches-remain.md, "Internals"). `drizzle.test.ts` beside this
 * file checks each shape, so an upgrade of drizzle-orm that moves one fails there first.
 */

/**
 * The connection a database handle or transaction runs on: a transaction handle keeps it at
 * `session.client`, a database handle its pool at `$client` (declared).
 */
export function connectionOf(db: Executor): pg.Pool | pg.ClientBase {
  if ('$client' in db) return db.$client;
  const { session } = db as { session?: { client?: pg.Pool | pg.ClientBase } };
  if (!session?.client) throw new Error('drizzle-orm no longer keeps its connection at session.client');
  return session.client;
}

/** A prepared select as drizzle's node-postgres driver builds it, with its undeclared `all`. */
interface PreparedWithRows {
  all(values: Record<string, unknown>): Promise<Record<string, unknown>[]>;
}

/**
 * Runs a prepared select and returns the driver's rows as they are (column names, instants as
 * PostgreSQL writes them), without the ORM's per-column mapping: `all` is what the prepared
 * query answers `execute` with when it has no fields to map. The statement is sent as
 * `execute` sends it, under its name and with its placeholders filled the same way.
 */
export function preparedRows(
  statement: { execute(values: Record<string, unknown>): Promise<unknown> },
  values: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const withRows = statement as typeof statement & Partial<PreparedWithRows>;
  if (typeof withRows.all !== 'function')
    throw new Error('drizzle-orm prepared queries no longer have all()');
  return withRows.all(values);
}
