import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePool, createDatabase, createPool } from './client.ts';
import { type AdministeredTestDatabase, createAdministeredTestDatabase } from './testing/index.ts';

/**
 * A connection lost while a client is checked out (the server restarting, or an operator
 * ending the session) must not end the process, and must not leave the pool a connection
 * short. `pg_terminate_backend` ends a session the way a fast shutdown does (57P01).
 */
describe('a pool whose connections are lost', () => {
  let database: AdministeredTestDatabase;
  let admin: pg.Pool;

  beforeAll(async () => {
    database = await createAdministeredTestDatabase();
    admin = database.admin;
  });

  afterAll(() => database.drop());

  const terminate = (pid: number) => admin.query('select pg_terminate_backend($1)', [pid]);
  const backendPid = async (client: pg.PoolClient | pg.Pool) =>
    (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;

  async function until(check: () => boolean, what: string) {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('drops a checked-out client at once, and its holder fails cleanly', async () => {
    const pool = createPool({ connectionString: database.connectionString, max: 2 });
    try {
      const client = await pool.connect();
      await client.query('begin');
      await terminate(await backendPid(client));
      // Without a listener on the client this 'error' event would have ended the process.
      await until(() => pool.totalCount === 0, 'the pool drops the client');
      await expect(client.query('select 1')).rejects.toThrow(/not queryable/);
      expect(() => client.release()).not.toThrow();
      expect(pool.totalCount).toBe(0);
      expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await closePool(pool);
    }
  });

  it('keeps refusing a second release by the holder of a live client', async () => {
    const pool = createPool({ connectionString: database.connectionString, max: 1 });
    try {
      const client = await pool.connect();
      client.release();
      expect(() => client.release()).toThrow(/already been released/);
    } finally {
      await closePool(pool);
    }
  });

  it('survives a transaction whose connection ends in the middle, and serves the next one', async () => {
    const pool = createPool({ connectionString: database.connectionString, max: 1 });
    const db = createDatabase(pool);
    try {
      const pid = await backendPid(pool);
      const failed = db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await terminate(pid);
        await tx.execute(sql`select pg_sleep(0.2)`);
      });
      await expect(failed).rejects.toThrow();
      // One connection at most: had the dead client stayed checked out, this would time out.
      const rows = await db.transaction(async (tx) => (await tx.execute(sql`select 2 as two`)).rows);
      expect(rows).toEqual([{ two: 2 }]);
    } finally {
      await closePool(pool);
    }
  });

  it('survives a query whose connection ends while it runs', async () => {
    const pool = createPool({ connectionString: database.connectionString, max: 1 });
    try {
      const pid = await backendPid(pool);
      const running = pool.query('select pg_sleep(5)');
      // Expected before the connection ends: the query may fail before terminate() returns,
      // and a rejection nobody waits for yet is reported as unhandled.
      const refused = expect(running).rejects.toThrow(/terminating connection|Connection terminated/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await terminate(pid);
      await refused;
      expect((await pool.query('select 3 as three')).rows).toEqual([{ three: 3 }]);
    } finally {
      await closePool(pool);
    }
  });

  it('lets a listening client that loses its connection be released by its holder', async () => {
    const pool = createPool({ connectionString: database.connectionString, max: 1 });
    try {
      const client = await pool.connect();
      let errors = 0;
      client.on('error', () => {
        errors++;
        client.release(new Error('lost'));
      });
      await client.query('listen some_channel');
      await terminate(await backendPid(client));
      await until(() => errors > 0 && pool.totalCount === 0, 'the listener hears of it');
      expect((await pool.query('select 4 as four')).rows).toEqual([{ four: 4 }]);
    } finally {
      await closePool(pool);
    }
  });
});

describe('the settings of a pooled connection', () => {
  let database: AdministeredTestDatabase;

  beforeAll(async () => {
    database = await createAdministeredTestDatabase();
  });

  afterAll(() => database.drop());

  const settings = async (pool: pg.Pool) =>
    (
      await pool.query<{ jit: string; sync: string }>(
        `select current_setting('jit') as jit, current_setting('synchronous_commit') as sync`,
      )
    ).rows[0];

  it('compiles no statement with JIT, and commits asynchronously only where asked', async () => {
    const main = createPool({ connectionString: database.connectionString, max: 1 });
    const counters = createPool({
      connectionString: database.connectionString,
      max: 1,
      synchronousCommit: false,
    });
    try {
      expect(await settings(main)).toEqual({ jit: 'off', sync: 'on' });
      expect(await settings(counters)).toEqual({ jit: 'off', sync: 'off' });
    } finally {
      await closePool(main);
      await closePool(counters);
    }
  });
});
