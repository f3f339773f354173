import type pg from 'pg';
import { createDatabase, type Database, notePoolOfClient } from './client.ts';

/**
 * Lets one statement at a time through, in the order they came; a statement that waits
 * longer than `patienceMs` for the one ahead goes anyway. The patience is what keeps two
 * transactions behind one gate from waiting on each other for good: one of them may be
 * waiting inside PostgreSQL for a lock the other holds, which the other can only give up by
 * running its next statement.
 */
export class StatementGate {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly patienceMs = 1_000) {}

  async run<T>(statement: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await statement();
    } finally {
      this.leave();
    }
  }

  private enter(): Promise<void> {
    if (this.held === 0) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        this.held++;
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(go);
        if (at >= 0) this.waiting.splice(at, 1);
        go();
      }, this.patienceMs);
      this.waiting.push(go);
    });
  }

  private leave(): void {
    this.held--;
    if (this.held === 0) this.waiting.shift()?.();
  }
}

/**
 * A handle on `db`'s pool whose statements, in transactions or not, all pass `gate`: work
 * spread over several connections (an import's chunks in flight) then has at most one
 * statement in PostgreSQL at a time, so it takes at most one of the database's cores while
 * what it does between statements (checking rows, building events) overlaps with it
 * (docs/jobs.md, "How jobs share the service").
 */
export function gatedDatabase(db: Database, gate: StatementGate): Database {
  const pool = db.$client;
  const gated = Object.create(pool) as pg.Pool;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(gated, {
    query: (...args: unknown[]) => gate.run(() => query(...args)),
    connect: async () => {
      const client = await pool.connect();
      const view = Object.create(client) as pg.PoolClient;
      const run = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      Object.assign(view, { query: (...args: unknown[]) => gate.run(() => run(...args)) });
      notePoolOfClient(view, pool);
      return view;
    },
  });
  return createDatabase(gated);
}
