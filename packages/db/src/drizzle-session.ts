import type pg from 'pg';
import type { Executor } from './client.ts';

/**
 * The one place that reaches into drizzle's node-postgres session (not in its declared
 * types): a transaction handle keeps the connection it runs on at `session.client`, and a
 * database handle its pool at `$client`. `drizzle-session.test.ts` fails when an upgrade of
 * drizzle-orm moves it.
 */
export function connectionOf(db: Executor): pg.Pool | pg.ClientBase {
  if ('$client' in db) return db.$client;
  const session = (db as unknown as { session?: { client?: pg.Pool | pg.ClientBase } }).session;
  if (!session?.client) throw new Error('drizzle-orm no longer keeps its connection at session.client');
  return session.client;
}
