import { type Database, preparedRows } from '@crm/db';

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
 * Runs a prepared select and returns the driver's rows as they are, without the ORM's
 * per-column mapping: for a statement every request runs, whose caller makes its rows itself
 * (`recordRowFromDriver`). See `preparedRows` (packages/db/src/internals/drizzle.ts).
 */
export const driverRows = preparedRows;
