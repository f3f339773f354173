import { createDatabase, createPool } from '@crm/db';
import { type AdministeredTestDatabase, createAdministeredTestDatabase } from '@crm/db/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowList } from './address-guard.ts';
import { type Dispatcher, startDispatcher } from './dispatcher.ts';

/**
 * `activity()`, which the metrics report (docs/operations.md, "Metrics"): a claim that does
 * not return shows as seconds that keep growing, and as 0 again once it has returned.
 */
describe("the dispatcher's activity", () => {
  let database: AdministeredTestDatabase;
  let admin: pg.Pool;

  beforeAll(async () => {
    database = await createAdministeredTestDatabase();
    admin = database.admin;
  });

  afterAll(() => database.drop());

  const settled = async (dispatcher: Dispatcher, check: (seconds: number) => boolean) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const seconds = dispatcher.activity().claimSeconds;
      if (check(seconds)) return seconds;
      if (Date.now() > deadline) throw new Error(`claimSeconds stayed at ${seconds}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('counts the seconds of a claim held up by a lock, and nothing in flight', async () => {
    const holder = await admin.connect();
    await holder.query('begin');
    await holder.query('lock table deliveries in access exclusive mode');
    const pool = createPool({ connectionString: database.connectionString, max: 4 });
    const dispatcher = await startDispatcher({
      db: createDatabase(pool),
      pool,
      outbound: { allow: parseAllowList(undefined), retry: { scale: 1, jitter: 0 } },
      logger: { warn: () => {}, error: () => {} },
      pollIntervalMs: 50,
    });
    try {
      // The first claim waits on the lock: its seconds grow, and nothing was claimed.
      const first = await settled(dispatcher, (seconds) => seconds >= 0.5);
      expect(await settled(dispatcher, (seconds) => seconds >= first + 0.5)).toBeGreaterThan(first);
      expect(dispatcher.activity()).toMatchObject({ sending: 0, recording: 0, recordSeconds: 0 });
      await holder.query('rollback');
      // Released, the claim returns (finding nothing); the next ones, one a poll, take a moment each.
      await settled(dispatcher, (seconds) => seconds === 0);
      const idle = dispatcher.activity();
      expect(idle).toMatchObject({ sending: 0, recording: 0, recordSeconds: 0 });
      // A claim under way now is a new one, not the one the lock held.
      expect(idle.claimSeconds).toBeLessThan(first);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      holder.release();
      await dispatcher.stop();
      await pool.end();
    }
  });
});
