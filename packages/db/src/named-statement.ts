import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Executor } from './client.ts';
import { connectionOf } from './internals/drizzle.ts';

/**
 * A statement whose text never changes, sent under its name: PostgreSQL parses it once per
 * connection and, after a few runs, keeps one plan for it instead of planning every run. For
 * the statements of busy write paths (links, events), whose planning weighed on `records`'
 * many indexes and statistics at every call (docs/architecture.md, "Cost per request").
 * Values go in as parameters only, lists as one JSON or array parameter, so the text stays
 * the same whatever their length.
 */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

const texts = new Map<string, string>();

/**
 * Declares a named statement. One name, one text: a second text under a taken name throws,
 * which is how a statement whose text varies (a list spelled out as `$1, $2, …`) is caught
 * before it fills every connection with prepared statements.
 */
export function namedStatement(name: string, text: string): NamedStatement {
  const known = texts.get(name);
  if (known !== undefined && known !== text) {
    throw new Error(`Statement name ${name} is taken by another text:\n${known}\n---\n${text}`);
  }
  texts.set(name, text);
  return { name, text };
}

/**
 * Instants, dates and intervals are left as PostgreSQL writes them, as drizzle's node-postgres
 * driver leaves them, so a row reads the same whichever way it was fetched.
 */
const AS_WRITTEN = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1185, // timestamptz[]
  1115, // timestamp[]
  1182, // date[]
  1187, // interval[]
  1231, // numeric[]
]);
const types = {
  getTypeParser: ((id: number, format?: string) =>
    AS_WRITTEN.has(id)
      ? (value: string) => value
      : pg.types.getTypeParser(id, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface RunNamedOptions {
  /**
   * How instants, dates and intervals come back: `text` (the default) as PostgreSQL writes
   * them, like every row drizzle reads; `date` as the driver parses them (a `Date` for an
   * instant), for a caller that compares or computes with them rather than passing them on.
   */
  instants?: 'text' | 'date';
}

/**
 * Runs a named statement on `db`: in its transaction when `db` is one, else on a connection
 * of its pool (outside any transaction). Returns the driver's rows.
 */
export async function runNamed<R extends Record<string, unknown> = Record<string, unknown>>(
  db: Executor,
  statement: NamedStatement,
  values: unknown[],
  options: RunNamedOptions = {},
): Promise<R[]> {
  const connection = connectionOf(db) as pg.ClientBase;
  const result = await connection.query<R>({
    name: statement.name,
    text: statement.text,
    values,
    ...(options.instants === 'date' ? {} : { types }),
  });
  return result.rows;
}

const dialect = new PgDialect();

/**
 * `runNamed` for a statement written with drizzle's `sql`: its text, once rendered, must be
 * the same on every call (see `namedStatement`).
 */
export async function runNamedSql<R extends Record<string, unknown> = Record<string, unknown>>(
  db: Executor,
  name: string,
  query: SQL,
): Promise<R[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return runNamed<R>(db, namedStatement(name, text), params);
}
