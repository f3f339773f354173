import { randomBytes } from 'node:crypto';
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
import { withTimeout } from './time.ts';

export interface BenchDatabase {
  /** URL of the fresh, migrated database the benchmark owns. */
  connectionString: string;
  /** `embedded` or the server of DATABASE_URL (password hidden). */
  server: string;
  drop(): Promise<void>;
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
  try {
    embedded = await startEmbeddedPostgres({ dataDir, port: 0, database: 'crm_bench' });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const drop = async () => {
    await withTimeout(embedded.stop(), 20_000, 'stopping embedded PostgreSQL').catch((error: unknown) =>
      log(`warning: ${String(error)}`),
    );
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await runMigrations(embedded.connectionString);
  } catch (error) {
    await drop();
    throw error;
  }
  return { connectionString: embedded.connectionString, server: 'embedded', drop };
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
  return { connectionString, server, drop };
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
