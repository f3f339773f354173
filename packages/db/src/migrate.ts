import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger, runMigrations as runQueueMigrations } from 'graphile-worker';
import pg from 'pg';

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '..', 'drizzle');

/** Any fixed number: every process that migrates takes the same advisory lock. */
const MIGRATION_LOCK = 727_001;

/** How often a process waiting for another's migrations asks for the lock again. */
const LOCK_POLL_MS = 200;

/**
 * The first line of a migration that runs outside a transaction, one statement at a time
 * (docs/operations.md, "Upgrades without downtime"): for CREATE INDEX CONCURRENTLY and batched
 * backfills, which a transaction would forbid or hold locks for. Each of its statements must
 * be safe to run again, since a migration stopped half-way starts again from its first.
 */
export const ONLINE_MARKER = '-- migrate: online';

export interface Migration {
  tag: string;
  /** The journal's instant of the migration, which orders migrations and marks them applied. */
  when: number;
  /** SHA-256 of the file, kept beside `when` as drizzle-kit's migrator keeps it. */
  hash: string;
  statements: string[];
  online: boolean;
}

/** The committed migrations in journal order (drizzle/meta/_journal.json). */
export function readMigrations(folder = migrationsFolder): Migration[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }) => {
    const text = readFileSync(join(folder, `${tag}.sql`), 'utf8');
    return {
      tag,
      when,
      hash: createHash('sha256').update(text).digest('hex'),
      statements: text.split('--> statement-breakpoint').filter((s) => s.trim() !== ''),
      online: text.startsWith(ONLINE_MARKER),
    };
  });
}

/**
 * Applies the committed SQL migrations not applied yet, then the job queue's own schema
 * (graphile-worker), which every process needs because jobs are added inside domain
 * transactions. A migration runs in a transaction of its own, or, when it is marked online,
 * statement by statement. Applied migrations are listed in `schema_migrations` (hash and
 * journal instant, as drizzle-kit's migrator wrote them before this one).
 *
 * Several processes starting at once take turns on an advisory lock, so each migration runs
 * once. A process waiting for the lock asks again every 200 ms rather than waiting inside a
 * statement: CREATE INDEX CONCURRENTLY waits for every transaction that holds a snapshot,
 * and would wait for the waiting process forever.
 */
export async function runMigrations(
  connectionString: string,
  options: { folder?: string; onMigration?: (tag: string) => void } = {},
): Promise<void> {
  const client = new pg.Client({ connectionString, application_name: 'crm-migrate' });
  // A connection lost meanwhile (the server restarting) fails the statement in flight, or the
  // next one; unheard, the client's 'error' event would end the process instead.
  client.on('error', () => {});
  await client.connect();
  try {
    while (!(await client.query('select pg_try_advisory_lock($1) as ok', [MIGRATION_LOCK])).rows[0]?.ok) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    try {
      await applyMigrations(client, readMigrations(options.folder), options.onMigration);
      await runQueueMigrations({ connectionString, logger: silentLogger });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await client.end();
  }
}

async function applyMigrations(
  client: pg.Client,
  migrations: Migration[],
  onMigration: ((tag: string) => void) | undefined,
): Promise<void> {
  await client.query(`create table if not exists public.schema_migrations (
    id serial primary key, hash text not null, created_at bigint)`);
  const last = await client.query<{ created_at: string }>(
    'select created_at from public.schema_migrations order by created_at desc limit 1',
  );
  const appliedUpTo = Number(last.rows[0]?.created_at ?? 0);
  const record = 'insert into public.schema_migrations (hash, created_at) values ($1, $2)';
  for (const migration of migrations) {
    if (migration.when <= appliedUpTo) continue;
    onMigration?.(migration.tag);
    if (migration.online) {
      for (const statement of migration.statements) await client.query(statement);
      await client.query(record, [migration.hash, migration.when]);
      continue;
    }
    await client.query('begin');
    try {
      for (const statement of migration.statements) await client.query(statement);
      await client.query(record, [migration.hash, migration.when]);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    }
  }
}

const silentLogger = new Logger(() => () => {});
