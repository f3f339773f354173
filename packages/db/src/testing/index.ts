import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { closePool, createPool } from '../client.ts';
import { startEmbeddedPostgres } from '../embedded.ts';
import { runMigrations } from '../migrate.ts';

/**
 * Test databases: one server per test run (the one in DATABASE_URL, or an embedded one in a
 * temporary folder), one migrated template database, and a fresh clone of it per test file.
 */

export interface TestServer {
  serverUrl: string;
  templateName: string;
  stop(): Promise<void>;
}

const ENV_SERVER = 'CRM_TEST_SERVER_URL';
const ENV_TEMPLATE = 'CRM_TEST_TEMPLATE';

/**
 * One database for every test file, migrated and set up beforehand, instead of a clone per
 * file: for a server that cannot clone (a Citus coordinator, whose shards live on other
 * nodes; see tooling/citus/run.sh). Test files must then run one at a time.
 */
const ENV_SHARED = 'CRM_TEST_DATABASE_URL';

/**
 * In a test process that must not use any database (the `unit` project, see
 * tooling/vitest/projects.ts), the reason, thrown by every helper here and by every `pg`
 * connection attempt instead of reaching a server. Kept on globalThis: one per process,
 * whichever copy of this module asks.
 */
const REFUSED = Symbol.for('crm.testing.noDatabase');
type Refusal = () => string;
const refusal = () => (globalThis as { [REFUSED]?: Refusal })[REFUSED];

/** The error a test process without a database throws where a test reaches for one. */
export class NoTestDatabaseError extends Error {
  override name = 'NoTestDatabaseError';
}

function assertDatabaseAllowed(what: string): void {
  const reason = refusal();
  if (reason) throw new NoTestDatabaseError(`${what}: ${reason()}`);
}

/**
 * Makes this test process refuse every database: the helpers here throw, and so does every
 * connection `pg` opens (clients and pools alike), with `reason()` (read when it happens, so it
 * can name the test file). For test projects that run without the global database setup.
 */
export function refuseTestDatabases(reason: () => string): void {
  (globalThis as { [REFUSED]?: Refusal })[REFUSED] = reason;
  const connect = pg.Client.prototype.connect as typeof pg.Client.prototype.connect & { refused?: true };
  if (connect.refused) return;
  const refused = function (this: pg.Client, callback?: (error: Error) => void) {
    const error = new NoTestDatabaseError(
      `a PostgreSQL connection to ${this.host}:${this.port}: ${refusal()?.() ?? 'refused'}`,
    );
    if (typeof callback === 'function') {
      process.nextTick(() => callback(error));
      return undefined;
    }
    return Promise.reject(error);
  } as unknown as typeof connect;
  refused.refused = true;
  pg.Client.prototype.connect = refused;
}

export async function startTestServer(): Promise<TestServer> {
  assertDatabaseAllowed('startTestServer');
  const shared = process.env[ENV_SHARED];
  if (shared) {
    const url = new URL(shared);
    url.pathname = '';
    process.env[ENV_SERVER] = url.toString().replace(/\/$/, '');
    process.env[ENV_TEMPLATE] = '';
    return { serverUrl: process.env[ENV_SERVER]!, templateName: '', stop: async () => {} };
  }
  let serverUrl: string;
  let stopServer = async () => {};
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = '';
    serverUrl = url.toString().replace(/\/$/, '');
  } else {
    const dataDir = await mkdtemp(join(tmpdir(), 'crm-test-pg-'));
    const embedded = await startEmbeddedPostgres({ dataDir });
    serverUrl = embedded.serverUrl;
    stopServer = async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const templateName = `crm_template_${process.pid}_${Date.now().toString(36)}`;
  await admin(serverUrl, async (client) => {
    await client.query(`create database ${templateName}`);
  });
  await runMigrations(`${serverUrl}/${templateName}`);
  process.env[ENV_SERVER] = serverUrl;
  process.env[ENV_TEMPLATE] = templateName;
  return {
    serverUrl,
    templateName,
    async stop() {
      await admin(serverUrl, (client) =>
        client.query(`drop database if exists ${templateName} with (force)`),
      );
      await stopServer();
    },
  };
}

export interface TestDatabase {
  connectionString: string;
  drop(): Promise<void>;
}

/** Clones the migrated template into a database of its own for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  assertDatabaseAllowed('createTestDatabase');
  const shared = process.env[ENV_SHARED];
  if (shared) return { connectionString: shared, drop: async () => {} };
  const serverUrl = process.env[ENV_SERVER];
  const template = process.env[ENV_TEMPLATE];
  if (!serverUrl || !template)
    throw new Error('the test server is not running: is the global setup configured?');
  const name = `crm_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await admin(serverUrl, (client) => client.query(`create database ${name} template ${template}`));
  return {
    connectionString: `${serverUrl}/${name}`,
    drop: () =>
      admin(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(
        () => {},
      ),
  };
}

export interface AdministeredTestDatabase extends TestDatabase {
  /** One connection on the database, through which a test acts as an operator would: ending sessions, holding locks. */
  admin: pg.Pool;
}

/** `createTestDatabase`, with a one-connection pool on it; `drop` closes the pool first. */
export async function createAdministeredTestDatabase(): Promise<AdministeredTestDatabase> {
  const database = await createTestDatabase();
  const pool = createPool({ connectionString: database.connectionString, max: 1 });
  return {
    connectionString: database.connectionString,
    admin: pool,
    async drop() {
      await closePool(pool);
      await database.drop();
    },
  };
}

async function admin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * On the one database every file shares (CRM_TEST_DATABASE_URL), empties the queue before a
 * file's tests, as a fresh clone starts: the jobs earlier files left (their apps often run no
 * worker), their webhook deliveries still due and their runs still open would otherwise fall
 * to this file's worker, whose own jobs then wait behind them. Nothing to do with a clone.
 */
export async function resetSharedQueue(): Promise<void> {
  const shared = process.env[ENV_SHARED];
  if (!shared) return;
  const client = new pg.Client({ connectionString: shared });
  await client.connect();
  try {
    // The job queue exists once a worker has started on the database.
    // By graphile-worker's admin functions: the jobs the workers of earlier files held are
    // released (those workers are gone), then every job is removed (complete_jobs).
    if ((await client.query(`select to_regclass('graphile_worker.jobs') as t`)).rows[0]?.t) {
      await client.query(
        `select graphile_worker.force_unlock_workers(array(
           select distinct locked_by from graphile_worker.jobs where locked_by is not null))`,
      );
      await client.query('select graphile_worker.complete_jobs(array(select id from graphile_worker.jobs))');
    }
    await client.query(
      `update deliveries set status = 'FAILED', next_attempt_at = null where status = 'PENDING'`,
    );
    await client.query(
      `update workflow_runs set status = 'FAILED', error = 'left by an earlier test file'
        where status in ('QUEUED', 'RUNNING')`,
    );
  } finally {
    await client.end();
  }
}
