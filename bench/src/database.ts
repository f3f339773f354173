import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  closePool,
  createDatabase,
  createPool,
  type Database,
  runMigrations,
  startEmbeddedPostgres,
} from '@crm/db';
import pg from 'pg';
import type { Cleanups } from './cleanup.ts';
import { intEnv } from './env.ts';
import { withTimeout } from './time.ts';

export interface BenchDatabase {
  /** URL of the fresh, migrated database the benchmark owns. */
  connectionString: string;
  /** `embedded` or the server of DATABASE_URL (password hidden). */
  server: string;
  /** The server's `shared_buffers`, as it reports it (`6GB`). */
  sharedBuffers?: string;
  drop(): Promise<void>;
}

/**
 * BENCH_PG_SHARED_BUFFERS, in MiB: the embedded server's `shared_buffers` when set, else
 * initdb's 128 MiB. A quarter of the machine's memory (6 GiB here) was measured and made
 * every figure worse on these machines: a fresh server maps each buffer on its first use
 * (a page fault per 4 KiB), which a six-minute run never finishes paying — PostgreSQL CPU
 * per link made rose from 395 to 566 µs, and the relation reads were no faster (README).
 */
function serverSettings(): Record<string, string> {
  const mib = process.env.BENCH_PG_SHARED_BUFFERS ? intEnv('BENCH_PG_SHARED_BUFFERS', 128, 16) : undefined;
  const statements = process.env.BENCH_PG_STAT_STATEMENTS === '1';
  const explainMs = process.env.BENCH_PG_AUTO_EXPLAIN_MS
    ? intEnv('BENCH_PG_AUTO_EXPLAIN_MS', 20, 0)
    : undefined;
  const libraries = [
    ...(statements ? ['pg_stat_statements'] : []),
    ...(explainMs === undefined ? [] : ['auto_explain']),
  ];
  return {
    ...(mib === undefined ? {} : { shared_buffers: `${mib}MB` }),
    ...(libraries.length > 0 ? { shared_preload_libraries: libraries.join(',') } : {}),
    ...(statements ? { 'pg_stat_statements.track': 'all' } : {}),
    // BENCH_PG_AUTO_EXPLAIN_MS: every statement slower than that is logged with its plan, and
    // the table's maintenance and checkpoints with it (to BENCH_PG_LOG, README).
    ...(explainMs === undefined
      ? {}
      : {
          'auto_explain.log_min_duration': `${explainMs}ms`,
          'auto_explain.log_nested_statements': 'on',
          log_autovacuum_min_duration: '0',
          log_checkpoints: 'on',
          log_line_prefix: '%m [%p] ',
        }),
  };
}

/**
 * BENCH_PG_LOG=<file>: the embedded server's log lines appended to the file, each as the
 * server wrote it (its own timestamp first, with BENCH_PG_AUTO_EXPLAIN_MS). The server's
 * logging collector is not used: the embedded server is started by reading its output.
 */
function serverLog(): ((line: string) => void) | undefined {
  const file = process.env.BENCH_PG_LOG;
  if (!file) return undefined;
  const out = createWriteStream(file, { flags: 'a' });
  return (line) => out.write(line.endsWith('\n') ? line : `${line}\n`);
}

/**
 * A fresh database: on the server of DATABASE_URL when set (created here, dropped at the
 * end), else on an embedded PostgreSQL in a temporary folder (stopped and removed at the end).
 */
export async function openDatabase(log: (line: string) => void): Promise<BenchDatabase> {
  const given = process.env.DATABASE_URL;
  if (given) return createOnServer(given, log);
  const dataDir = await mkdtemp(join(tmpdir(), 'crm-bench-pg-'));
  log(`starting embedded PostgreSQL in ${dataDir}`);
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  const onLog = serverLog();
  try {
    embedded = await startEmbeddedPostgres({
      dataDir,
      port: 0,
      database: 'crm_bench',
      settings: serverSettings(),
      ...(onLog ? { onLog } : {}),
    });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const drop = async () => {
    await withTimeout(embedded.stop(), 20_000, 'stopping embedded PostgreSQL').catch((error: unknown) =>
      log(`warning: ${String(error)}`),
    );
    // BENCH_KEEP_DATABASE=1 keeps the embedded cluster's folder too, stopped (README).
    if (process.env.BENCH_KEEP_DATABASE === '1') {
      log(`BENCH_KEEP_DATABASE=1: the embedded cluster is kept in ${dataDir}`);
      return;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await runMigrations(embedded.connectionString);
  } catch (error) {
    await drop();
    throw error;
  }
  const sharedBuffers = await showSharedBuffers(embedded.connectionString);
  return {
    connectionString: embedded.connectionString,
    server: 'embedded',
    ...(sharedBuffers ? { sharedBuffers } : {}),
    drop,
  };
}

async function createOnServer(given: string, log: (line: string) => void): Promise<BenchDatabase> {
  const name = `crm_bench_${randomBytes(6).toString('hex')}`;
  const url = new URL(given);
  const server = `${url.protocol}//${url.host}`;
  log(`creating database ${name} on ${server}`);
  await admin(given, (client) => client.query(`create database ${name}`));
  url.pathname = `/${name}`;
  const connectionString = url.toString();
  const drop = async () => {
    // BENCH_KEEP_DATABASE=1 leaves the database for a look at its plans afterwards (README).
    if (process.env.BENCH_KEEP_DATABASE === '1') {
      log(`BENCH_KEEP_DATABASE=1: ${connectionString} is kept`);
      return;
    }
    await withTimeout(
      admin(given, (client) => client.query(`drop database if exists ${name} with (force)`)),
      20_000,
      `dropping ${name}`,
    );
  };
  try {
    await runMigrations(connectionString);
  } catch (error) {
    await drop();
    throw error;
  }
  const sharedBuffers = await showSharedBuffers(connectionString);
  return { connectionString, server, ...(sharedBuffers ? { sharedBuffers } : {}), drop };
}

function showSharedBuffers(connectionString: string): Promise<string | undefined> {
  return admin(connectionString, (client) =>
    client.query<{ shared_buffers: string }>('show shared_buffers'),
  ).then((r) => r.rows[0]?.shared_buffers);
}

async function admin<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The fresh database of a benchmark and the benchmark's own small pool on it (seeding,
 * checks), both undone by `cleanups` at the end.
 */
export async function openBenchDatabase(
  log: (line: string) => void,
  cleanups: Cleanups,
): Promise<{ database: BenchDatabase; pool: pg.Pool; db: Database }> {
  const database = await openDatabase(log);
  cleanups.push({ what: 'dropping the database', run: database.drop });
  const pool = createPool({
    connectionString: database.connectionString,
    max: 4,
    applicationName: 'crm-bench',
  });
  cleanups.push({ what: 'closing the pool', run: () => closePool(pool) });
  return { database, pool, db: createDatabase(pool) };
}
