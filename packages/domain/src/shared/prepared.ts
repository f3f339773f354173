import type { Database } from '@crm/db';

const cache = new WeakMap<Database, Map<string, unknown>>();

/**
 * A statement built once per database handle and prepared on the server under `name`.
 * For the queries every request runs (the API-key lookup, a record by id): building the
 * query with the ORM each time cost more CPU than running it.
 */
export function prepared<T>(db: Database, name: string, build: (db: Database) => T): T {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    statements.set(name, statement);
  }
  return statement;
}

/**
 * Runs a prepared select and returns the driver's rows as they are (column names, instants as
 * PostgreSQL writes them), without the ORM's per-column mapping: for a statement every request
 * runs, whose caller makes its rows itself (`recordRowFromDriver`). The statement is sent as
 * `execute` sends it, under its name and with its placeholders filled the same way.
 */
export function driverRows(
  statement: { execute(values: Record<string, unknown>): Promise<unknown> },
  values: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  // `all` is what drizzle's node-postgres prepared query answers `execute` with when it has no
  // fields to map; it is not in the declared type.
  return (
    statement as unknown as { all(values: Record<string, unknown>): Promise<Record<string, unknown>[]> }
  ).all(values);
}
