import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePool, createDatabase, createPool, type Database } from './client.ts';
import { connectionOf } from './internals/drizzle.ts';
import { namedStatement, runNamed, runNamedSql } from './named-statement.ts';
import { createTestDatabase, type TestDatabase } from './testing/index.ts';

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

const backend = namedStatement('test_backend_pid', 'select pg_backend_pid() as pid, $1::text as echo');

describe('named statements', () => {
  it('runs in the transaction it is given, on that transaction’s connection', async () => {
    await db.transaction(async (tx) => {
      const inside = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
      const [row] = await runNamed<{ pid: number; echo: string }>(tx, backend, ['hello']);
      expect(row).toEqual({ pid: inside.rows[0]!.pid, echo: 'hello' });
      // A row written by the transaction is seen by the named statement, and goes with its rollback.
      await tx.execute(sql`create temporary table named_probe (n int) on commit drop`);
      await tx.execute(sql`insert into named_probe values (7)`);
      const seen = await runNamed<{ n: number }>(
        tx,
        namedStatement('test_probe', 'select n from named_probe'),
        [],
      );
      expect(seen).toEqual([{ n: 7 }]);
    });
  });

  it('runs on a connection of the pool outside a transaction', async () => {
    for (let i = 0; i < 3; i++) {
      const [row] = await runNamed<{ echo: string }>(db, backend, [String(i)]);
      expect(row!.echo).toBe(String(i));
    }
  });

  it('is prepared on the server under its name, and sent again by name only', async () => {
    await db.transaction(async (tx) => {
      await runNamed(tx, backend, ['a']);
      await runNamed(tx, backend, ['b']);
      const { rows } = await tx.execute<{ statement: string }>(
        sql`select statement from pg_prepared_statements where name = 'test_backend_pid'`,
      );
      expect(rows).toEqual([{ statement: backend.text }]);
    });
  });

  it('refuses a second text under a taken name', () => {
    expect(() => namedStatement('test_backend_pid', 'select 1')).toThrow(/taken by another text/);
    expect(namedStatement('test_backend_pid', backend.text)).toEqual(backend);
  });

  it('finds the connection drizzle keeps for a transaction (fails when an upgrade moves it)', async () => {
    expect(connectionOf(db)).toBe(pool);
    await db.transaction(async (tx) => {
      const connection = connectionOf(tx);
      expect(connection).not.toBe(pool);
      expect(typeof (connection as pg.ClientBase).query).toBe('function');
    });
  });
});

describe('named statements written with sql', () => {
  it('render once and run with their parameters', async () => {
    const rows = await runNamedSql<{ n: number; at: string }>(
      db,
      'test_sql_echo',
      sql`select ${41}::int + 1 as n, '2026-11-25T10:00:00Z'::timestamptz as at`,
    );
    // Instants come as PostgreSQL writes them, as drizzle's driver gives them.
    expect(rows).toEqual([{ n: 42, at: '2026-11-25 10:00:00+00' }]);
  });

  it('refuse a text that changes with the values (a list spelled out)', async () => {
    const probe = (ids: string[]) => runNamedSql(db, 'test_sql_list', sql`select 1 where 'a' in ${ids}`);
    await probe(['a', 'b']);
    await expect(probe(['a', 'b', 'c'])).rejects.toThrow(/taken by another text/);
  });
});
