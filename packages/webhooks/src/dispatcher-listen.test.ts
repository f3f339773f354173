import { createDatabase, createPool } from '@crm/db';
import { type AdministeredTestDatabase, createAdministeredTestDatabase } from '@crm/db/testing';
import { DELIVERY_CHANNEL } from '@crm/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowList } from './address-guard.ts';
import { startDispatcher } from './dispatcher.ts';

/**
 * The dispatcher's LISTEN connection is ended the way a server restart ends it (a fast
 * shutdown sends FATAL 57P01, then closes the socket: two 'error' events on one client). It
 * must reconnect and listen again, each time, without ending the process.
 */
describe('the delivery listener after its connection is lost', () => {
  let database: AdministeredTestDatabase;
  let admin: pg.Pool;

  beforeAll(async () => {
    database = await createAdministeredTestDatabase();
    admin = database.admin;
  });

  afterAll(() => database.drop());

  const listeners = async () =>
    (
      await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = current_database() and query = $1 and state = 'idle'`,
        [`listen ${DELIVERY_CHANNEL}`],
      )
    ).rows.map((row) => row.pid);

  async function nextListener(previous: number | undefined): Promise<number> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = (await listeners()).filter((pid) => pid !== previous);
      if (found.length === 1) return found[0]!;
      if (Date.now() > deadline) throw new Error(`no new listener (found ${found.length})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const pools = {
    "the service's pool": () => createPool({ connectionString: database.connectionString, max: 4 }),
    'a bare pg pool': () => {
      const pool = new pg.Pool({ connectionString: database.connectionString, max: 4 });
      pool.on('error', () => {});
      return pool;
    },
  };

  for (const [name, makePool] of Object.entries(pools)) {
    it(`listens again after each loss, on ${name}`, async () => {
      const pool = makePool();
      const errors: string[] = [];
      const dispatcher = await startDispatcher({
        db: createDatabase(pool),
        pool,
        outbound: { allow: parseAllowList(undefined), retry: { scale: 1, jitter: 0 } },
        logger: { warn: () => {}, error: (_details, message) => errors.push(message) },
        pollIntervalMs: 50,
      });
      try {
        let pid = await nextListener(undefined);
        for (let round = 0; round < 3; round++) {
          await admin.query('select pg_terminate_backend($1)', [pid]);
          pid = await nextListener(pid);
        }
        expect(errors).toContain('the webhook delivery listener lost its connection');
        expect(await listeners()).toEqual([pid]);
      } finally {
        await dispatcher.stop();
        await pool.end();
      }
    });
  }
});
