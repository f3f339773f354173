import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePool, createDatabase, createPool, type Database } from './client.ts';
import { isSharded } from './distribution.ts';
import { gatedDatabase, StatementGate } from './gated-database.ts';
import { runNamedSql } from './named-statement.ts';
import { createTestDatabase, type TestDatabase } from './testing/index.ts';

/** A gate that counts the statements it lets through and the most it held at once. */
class CountingGate extends StatementGate {
  passed = 0;
  inside = 0;
  most = 0;

  override async run<T>(statement: () => Promise<T>): Promise<T> {
    return super.run(async () => {
      this.passed++;
      this.most = Math.max(this.most, ++this.inside);
      try {
        return await statement();
      } finally {
        this.inside--;
      }
    });
  }
}

/** A promise and the function that settles it. */
function signal() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('a statement gate', () => {
  it('lets one statement through at a time, in the order they came', async () => {
    const gate = new StatementGate(60_000);
    const order: string[] = [];
    const first = signal();
    const a = gate.run(async () => {
      order.push('a starts');
      await first.opened;
      order.push('a ends');
    });
    const b = gate.run(async () => order.push('b'));
    const c = gate.run(async () => order.push('c'));
    await Promise.resolve();
    expect(order).toEqual(['a starts']);
    first.open();
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a starts', 'a ends', 'b', 'c']);
  });

  it('lets a waiting statement go once its patience runs out, and goes on after a failure', async () => {
    const gate = new StatementGate(5);
    const stuck = signal();
    const holder = gate.run(() => stuck.opened);
    // Runs although the one ahead of it has not ended.
    await gate.run(async () => undefined);
    stuck.open();
    await holder;
    await expect(gate.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await gate.run(async () => 'after')).toBe('after');
  });
});

describe('a gated database', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool({ connectionString: database.connectionString, max: 4 });
    db = createDatabase(pool);
    await db.execute(sql`create table gate_probe (id int primary key, n int not null)`);
    await db.execute(sql`insert into gate_probe values (1, 0)`);
  });
  afterAll(async () => {
    await closePool(pool);
    await database.drop();
  });

  it('sends every statement of concurrent transactions through the gate, one at a time', async () => {
    const gate = new CountingGate(60_000);
    const gated = gatedDatabase(db, gate);
    const pids = await Promise.all(
      [0, 1, 2].map((n) =>
        gated.transaction(async (tx) => {
          for (let i = 0; i < 3; i++) await tx.execute(sql`select pg_sleep(0.005)`);
          await runNamedSql(tx, 'gate_probe_read', sql`select n from gate_probe where id = 1`);
          expect(await isSharded(tx)).toBe(false);
          return (await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid, ${n}::int`)).rows[0]!
            .pid;
        }),
      ),
    );
    // Each transaction on a connection of its own, and none of their statements beside another.
    expect(new Set(pids).size).toBe(3);
    expect(gate.most).toBe(1);
    // begin, three sleeps, the named read, the pid and commit, in each (isSharded asks the pool).
    expect(gate.passed).toBeGreaterThanOrEqual(3 * 7);
    const before = gate.passed;
    await gated.execute(sql`select 1`);
    expect(gate.passed).toBe(before + 1);
  });

  it('does not hold two transactions waiting on each other: a row lock is given up in time', async () => {
    const gated = gatedDatabase(db, new StatementGate(20));
    const locked = signal();
    const first = gated.transaction(async (tx) => {
      await tx.execute(sql`select n from gate_probe where id = 1 for update`);
      locked.open();
      // The second transaction now waits inside PostgreSQL for this row, holding the gate.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.execute(sql`update gate_probe set n = n + 1 where id = 1`);
    });
    await locked.opened;
    const second = gated.transaction(async (tx) => {
      await tx.execute(sql`update gate_probe set n = n + 10 where id = 1`);
    });
    await Promise.all([first, second]);
    const [row] = (await db.execute<{ n: number }>(sql`select n from gate_probe where id = 1`)).rows;
    expect(row?.n).toBe(11);
  });
});
