import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePool, createDatabase, createPool, type Database } from '../client.ts';
import { workspaces } from '../schema/index.ts';
import { createTestDatabase, type TestDatabase } from '../testing/index.ts';
import { connectionOf, preparedRows } from './drizzle.ts';

/** The shapes of drizzle-orm that drizzle.ts reads past its declared types. */
let database: TestDatabase;
let pool: pg.Pool;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.connectionString, max: 2 });
  db = createDatabase(pool);
});
afterAll(async () => {
  await closePool(pool);
  await database.drop();
});

describe('drizzle-orm internals this service relies on', () => {
  it('a database handle keeps its pool at $client, a transaction its connection at session.client', async () => {
    expect(connectionOf(db)).toBe(pool);
    await db.transaction(async (tx) => {
      const connection = connectionOf(tx) as pg.ClientBase;
      expect(connection).not.toBe(pool);
      // The transaction's own session: a temporary table it made is seen on that connection.
      await tx.execute(sql`create temporary table drizzle_probe (n int) on commit drop`);
      await tx.execute(sql`insert into drizzle_probe values (7)`);
      const { rows } = await connection.query('select n from drizzle_probe');
      expect(rows).toEqual([{ n: 7 }]);
    });
  });

  it("a prepared select answers the driver's rows through all(), without the ORM's mapping", async () => {
    await db.insert(workspaces).values({ id: 'ws_internals', name: 'Probe' });
    const statement = db
      .select({ id: workspaces.id, rateLimitPerMinute: workspaces.rateLimitPerMinute })
      .from(workspaces)
      .where(eq(workspaces.id, sql.placeholder('id')))
      .prepare('internals_probe');
    expect('all' in statement).toBe(true);
    // The driver's row: PostgreSQL's column names (snake_case), not the selection's keys.
    expect(await preparedRows(statement, { id: 'ws_internals' })).toEqual([
      { id: 'ws_internals', rate_limit_per_minute: 120 },
    ]);
    expect(await statement.execute({ id: 'ws_internals' })).toEqual([
      { id: 'ws_internals', rateLimitPerMinute: 120 },
    ]);
  });
});
