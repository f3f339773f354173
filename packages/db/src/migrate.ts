import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Logger, runMigrations as runQueueMigrations } from 'graphile-worker';
import pg from 'pg';

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '..', 'drizzle');

/** Any fixed number: every process that migrates takes the same advisory lock. */
const MIGRATION_LOCK = 727_001;

/**
 * Applies the committed SQL migrations, then the job queue's own schema (graphile-worker),
 * which every process needs because jobs are added inside domain transactions. Several
 * processes starting at once queue on an advisory lock, so each migration runs once.
 */
export async function runMigrations(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, application_name: 'crm-migrate' });
  // A connection lost meanwhile (the server restarting) fails the statement in flight, or the
  // next one; unheard, the client's 'error' event would end the process instead.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), {
        migrationsFolder,
        migrationsSchema: 'public',
        migrationsTable: 'schema_migrations',
      });
      await runQueueMigrations({ connectionString, logger: silentLogger });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await client.end();
  }
}

const silentLogger = new Logger(() => () => {});
