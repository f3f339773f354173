import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, ONLINE_MARKER, readMigrations, runMigrations } from './migrate.ts';
import { createTestDatabase, type TestDatabase } from './testing/index.ts';

/**
 * Migrations a running service can take (docs/operations.md, "Upgrades without downtime"):
 * from 0023 on, a migration that touches a large table runs online (no transaction, indexes
 * built CONCURRENTLY, backfills in batches that commit). Checked two ways:
 * - every such migration is written so (the text of the files);
 * - the online migrations run against a database of 20,000 records while four clients read,
 *   insert, update and search `records` without pause: none of their statements waits a
 *   second, and no lock that blocks reads or writes is ever held on `records` meanwhile.
 *   A migration written as an example of a batched backfill runs with them.
 */

/** Migrations before this one were written before the rule. */
const FIRST_ONLINE = '0023_online_search_indexes';
/** Tables that grow with the workspaces' data: what a migration may not lock. */
const LARGE = [
  'records',
  'record_links',
  'events',
  'history',
  'deals',
  'tasks',
  'comments',
  'call_logs',
  'audit_log',
];

describe('migrations from 0023 on', () => {
  it('are online when they touch a large table, and build indexes concurrently', () => {
    const migrations = readMigrations();
    const from = migrations.findIndex((m) => m.tag === FIRST_ONLINE);
    expect(from).toBeGreaterThan(0);
    for (const m of migrations.slice(from)) {
      const text = m.statements.join('\n');
      const touches = LARGE.some((table) => new RegExp(`"?${table}"?\\b`).test(text));
      if (!touches) continue;
      expect(m.online, `${m.tag} touches a large table: start it with "${ONLINE_MARKER}"`).toBe(true);
      for (const statement of m.statements) {
        const sql = statement.replace(/--.*$/gm, '').trim();
        if (/^create\s+(unique\s+)?index/i.test(sql)) expect(sql, m.tag).toMatch(/ concurrently /i);
        if (/^drop\s+index/i.test(sql)) expect(sql, m.tag).toMatch(/ concurrently /i);
        // A column with a default that is not a constant, a type change, a constraint checked
        // at once: each rewrites or scans the table under a lock that blocks it.
        if (/^alter\s+table/i.test(sql)) {
          expect(sql, m.tag).not.toMatch(/alter\s+column\s+\S+\s+(set\s+data\s+)?type/i);
          expect(sql, m.tag).not.toMatch(/add\s+constraint(?![\s\S]*not\s+valid)/i);
        }
      }
    }
  });
});

/** An online migration of the kind the rule asks for: a column filled in batches that commit. */
const BACKFILL_EXAMPLE = `${ONLINE_MARKER}
-- Example only (test): a nullable column, then filled a batch at a time.
SET lock_timeout = '1s';
--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN IF NOT EXISTS "example_title_length" integer;
--> statement-breakpoint
RESET lock_timeout;
--> statement-breakpoint
DO $$
DECLARE done integer;
BEGIN
  LOOP
    UPDATE "records" SET "example_title_length" = length("title")
     WHERE ctid = ANY (ARRAY(SELECT ctid FROM "records" WHERE "example_title_length" IS NULL LIMIT 2000));
    GET DIAGNOSTICS done = ROW_COUNT;
    COMMIT;
    EXIT WHEN done = 0;
  END LOOP;
END $$;
`;

describe('online migrations under load', () => {
  let folder: string;
  let database: TestDatabase;
  let url: string;

  beforeAll(async () => {
    // A test database emptied, then migrated up to the first online migration.
    database = await createTestDatabase();
    url = database.connectionString;
    await withClient(url, (c) =>
      c.query(
        'drop schema public cascade; drop schema if exists graphile_worker cascade; create schema public',
      ),
    );
    // The migrations before the first online one, then 20,000 records.
    folder = mkdtempSync(join(tmpdir(), 'crm-online-'));
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
      entries: { idx: number; tag: string; when: number; version: string; breakpoints: boolean }[];
    };
    const at = journal.entries.findIndex((e) => e.tag === FIRST_ONLINE);
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    await runMigrations(url, { folder });
    // Then the full journal, and the example backfill after it.
    const last = journal.entries.at(-1) as (typeof journal.entries)[number];
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: '9999_example_backfill' });
    writeFileSync(journalFile, JSON.stringify(journal));
    writeFileSync(join(folder, '9999_example_backfill.sql'), BACKFILL_EXAMPLE);
    await withClient(url, async (c) => {
      await c.query(`insert into workspaces (id, name) values ('ws_load', 'Load')`);
      await c.query(`insert into folders (workspace_id, id, name) values ('ws_load', 'fld_load', 'People')`);
      await c.query(`
        insert into records (workspace_id, id, folder_id, title, email, search_text, created_at, updated_at)
        select 'ws_load', 'rec_' || n, 'fld_load', 'Person ' || n, 'p' || n || '@example.com',
               'Person ' || n || E'\\np' || n || '@example.com', now() - (n || ' seconds')::interval, now()
          from generate_series(1, 20000) n`);
      await c.query('analyze records');
    });
  }, 120_000);

  afterAll(async () => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    await database?.drop();
  });

  it('keep every read and write of records under a second, and hold no lock that blocks them', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 6 });
    let running = true;
    let slowest = 0;
    let operations = 0;
    const blocking: string[] = [];
    const time = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      slowest = Math.max(slowest, performance.now() - started);
      operations++;
    };
    const load = async (client: number) => {
      for (let i = 0; running; i++) {
        const n = 1 + ((i * 7919 + client * 104729) % 20000);
        await time(() =>
          pool.query(`select * from records where workspace_id = 'ws_load' and id = $1`, [`rec_${n}`]),
        );
        await time(() =>
          pool.query(
            `insert into records (workspace_id, id, folder_id, title, search_text)
             values ('ws_load', $1, 'fld_load', 'New ' || $1, 'New ' || $1)`,
            [`rec_new_${client}_${i}`],
          ),
        );
        await time(() =>
          pool.query(
            `update records set title = title || '.', updated_at = now() where workspace_id = 'ws_load' and id = $1`,
            [`rec_${n}`],
          ),
        );
        await time(() =>
          pool.query(
            `select id from records where workspace_id = 'ws_load' and trashed_at is null and search_text ilike $1
              order by created_at desc, id desc limit 50`,
            [`%${n % 977}%`],
          ),
        );
      }
    };
    // Every 20 ms: a lock on `records` that conflicts with reads or writes, granted to anyone.
    const watch = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        while (running) {
          const held = await client.query<{ mode: string; query: string }>(
            `select l.mode, a.query from pg_locks l join pg_stat_activity a on a.pid = l.pid
              where l.locktype = 'relation' and l.relation = 'records'::regclass and l.granted
                and l.mode in ('ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')`,
          );
          for (const row of held.rows) blocking.push(`${row.mode}: ${row.query.slice(0, 120)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await client.end();
      }
    };
    const loads = [0, 1, 2, 3].map(load);
    const watcher = watch();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const applied: string[] = [];
    try {
      await runMigrations(url, { folder, onMigration: (tag) => applied.push(tag) });
    } finally {
      running = false;
      await Promise.all([...loads, watcher]);
      await pool.end();
    }
    expect(applied).toEqual([
      ...readdirSync(folder)
        .filter((f) => f.endsWith('.sql') && f >= `${FIRST_ONLINE}.sql`)
        .map((f) => f.replace(/\.sql$/, ''))
        .sort(),
    ]);
    expect(operations).toBeGreaterThan(100);
    expect(slowest).toBeLessThan(1_000);
    // ADD COLUMN takes an ACCESS EXCLUSIVE lock for an instant, CREATE TRIGGER a SHARE ROW
    // EXCLUSIVE one; each waits 1 s at most for it (lock_timeout). Anything else is a lock held
    // while the table is read or written.
    expect(blocking.filter((b) => !/ADD COLUMN|CREATE OR REPLACE TRIGGER/i.test(b))).toEqual([]);
    await withClient(url, async (c) => {
      const indexes = await c.query<{ name: string; valid: boolean }>(
        `select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
          where i.indrelid = 'records'::regclass order by 1`,
      );
      expect(indexes.rows.every((i) => i.valid)).toBe(true);
      expect(indexes.rows.map((i) => i.name)).toEqual(
        expect.arrayContaining(['records_search_idx', 'records_live_updated_idx', 'records_live_title_idx']),
      );
      expect(
        indexes.rows
          .map((i) => i.name)
          .filter((n) => n.endsWith('_walk_idx') || n.endsWith('_folder_idx') || n.endsWith('_keyed_idx')),
      ).toEqual([]);
      // The trigram index keys the workspace and the folder as expressions (migration 0030).
      const trigram = await c.query<{ definition: string }>(
        `select pg_get_indexdef('records_search_idx'::regclass) as definition`,
      );
      expect(trigram.rows[0]?.definition).toContain(`(folder_id || ''::text)`);
      // With statistics of its expressions, which a new index has only once the table is analyzed.
      const statistics = await c.query<{ n: number }>(
        `select count(*)::int as n from pg_stats where tablename = 'records_search_idx'`,
      );
      expect(statistics.rows[0]?.n).toBe(2);
      // Filled, every record made before the migration (the clients' new ones may come after it).
      const unfilled = await c.query(
        `select count(*)::int as n from records where example_title_length is null and id not like 'rec_new_%'`,
      );
      expect(unfilled.rows[0].n).toBe(0);
    });
  }, 180_000);
});

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
