import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, runMigrations } from './migrate.ts';
import { GLOBAL_TABLES } from './tenancy.ts';
import { createTestDatabase, type TestDatabase } from './testing/index.ts';

/**
 * The schema is ready to shard by workspace (docs/scaling.md): read from the catalog of a
 * migrated database, every table is either named global in tenancy.ts or a tenant table whose
 * keys all include `workspace_id`. And the migration that made it so keeps existing rows.
 */

interface Constraint {
  table: string;
  name: string;
  kind: 'p' | 'u' | 'f';
  columns: string[];
  target: string | null;
  targetColumns: string[] | null;
}

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

async function tables(): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
  );
  return result.rows.map((r) => r.name);
}

async function constraints(): Promise<Constraint[]> {
  const result = await client.query<Constraint>(
    `select c.relname as table, con.conname as name, con.contype as kind,
            array(select a.attname from unnest(con.conkey) with ordinality k(n, i)
                    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
            t.relname as target,
            case when con.contype = 'f' then
              array(select a.attname from unnest(con.confkey) with ordinality k(n, i)
                      join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i)::text[]
            end as "targetColumns"
       from pg_constraint con
       join pg_class c on c.oid = con.conrelid
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_class t on t.oid = con.confrelid
      where n.nspname = 'public' and con.contype in ('p', 'u', 'f')`,
  );
  return result.rows;
}

/** Unique indexes that back no constraint (CREATE UNIQUE INDEX), with their key columns. */
async function uniqueIndexes(): Promise<{ table: string; name: string; columns: string[] }[]> {
  const result = await client.query<{ table: string; name: string; columns: string[] }>(
    `select c.relname as table, i.relname as name,
            array(select a.attname from unnest(x.indkey::int2[]) with ordinality k(n, o)
                    join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.n order by k.o)::text[] as columns
       from pg_index x
       join pg_class c on c.oid = x.indrelid
       join pg_class i on i.oid = x.indexrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and x.indisunique
        and not exists (select 1 from pg_constraint con where con.conindid = x.indexrelid)`,
  );
  return result.rows;
}

const isGlobal = (table: string) => Object.hasOwn(GLOBAL_TABLES, table);

/** What breaks the tenant rule, one line each (sorted). */
async function problems(): Promise<string[]> {
  const tenant = (await tables()).filter((t) => !isGlobal(t));
  const columns = await client.query<{ table: string; nullable: string }>(
    `select table_name as table, is_nullable as nullable from information_schema.columns
      where table_schema = 'public' and column_name = 'workspace_id'`,
  );
  const withWorkspace = new Map(columns.rows.map((r) => [r.table, r.nullable]));
  const found: string[] = [];
  for (const table of tenant) {
    if (withWorkspace.get(table) !== 'NO') found.push(`${table}: no workspace_id NOT NULL`);
  }
  const all = await constraints();
  for (const table of tenant) {
    if (!all.some((c) => c.table === table && c.kind === 'p')) found.push(`${table}: no primary key`);
  }
  for (const c of all.filter((c) => !isGlobal(c.table))) {
    // A reference to a global table (a user, the workspace itself) needs no workspace_id.
    if (c.kind === 'f' && c.target && isGlobal(c.target)) continue;
    if (!c.columns.includes('workspace_id')) {
      found.push(`${c.table}.${c.name}: ${c.kind === 'f' ? 'foreign key' : 'key'} without workspace_id`);
    } else if (c.kind === 'f' && c.targetColumns?.[c.columns.indexOf('workspace_id')] !== 'workspace_id') {
      found.push(`${c.table}.${c.name}: points at ${c.target} by another workspace's row`);
    }
  }
  for (const index of await uniqueIndexes()) {
    if (!isGlobal(index.table) && !index.columns.includes('workspace_id'))
      found.push(`${index.table}.${index.name}: unique index without workspace_id`);
  }
  return found.sort();
}

describe('the schema, read from the catalog', () => {
  it('names every global table that exists, and none that does not', async () => {
    const all = await tables();
    for (const table of Object.keys(GLOBAL_TABLES)) expect(all, table).toContain(table);
  });

  it('gives every tenant table a workspace_id that every key includes', async () => {
    const tenant = (await tables()).filter((t) => !isGlobal(t));
    expect(tenant.length).toBeGreaterThan(10);
    expect(await problems()).toEqual([]);
  });

  it('catches a new table keyed by id alone, or pointing at another tenant table by id', async () => {
    await client.query(`create table gadgets (workspace_id text not null, id text primary key, record_id text,
                          code text, foreign key (workspace_id, record_id) references records (workspace_id, id))`);
    await client.query('create unique index gadgets_code on gadgets (code)');
    await client.query(`create table widgets (id text primary key, gadget_id text references gadgets (id))`);
    try {
      expect(await problems()).toEqual(
        [
          'gadgets.gadgets_pkey: key without workspace_id',
          'gadgets.gadgets_code: unique index without workspace_id',
          'widgets: no workspace_id NOT NULL',
          'widgets.widgets_gadget_id_fkey: foreign key without workspace_id',
          'widgets.widgets_pkey: key without workspace_id',
        ].sort(),
      );
    } finally {
      await client.query('drop table widgets, gadgets');
    }
  });

  it('has no global table pointing at a tenant table', async () => {
    const pointing = (await constraints())
      .filter((c) => c.kind === 'f' && isGlobal(c.table) && c.target && !isGlobal(c.target))
      .map((c) => `${c.table}.${c.name} -> ${c.target}`);
    expect(pointing).toEqual([]);
  });
});

describe('the migration to workspace-leading keys', () => {
  let empty: { name: string; connectionString: string } | undefined;
  let folder: string | undefined;

  afterAll(async () => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    if (empty) {
      const admin = new pg.Client({ connectionString: `${process.env.CRM_TEST_SERVER_URL}/postgres` });
      await admin.connect();
      await admin.query(`drop database if exists ${empty.name} with (force)`);
      await admin.end();
    }
  });

  it('keeps every row, and the foreign keys still hold', async () => {
    // A database at the migration before it, with rows in every tenant table it changes.
    const serverUrl = process.env.CRM_TEST_SERVER_URL!;
    const name = `crm_keys_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    empty = { name, connectionString: `${serverUrl}/${name}` };
    folder = mkdtempSync(join(tmpdir(), 'crm-migrations-'));
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0010_tenant_keys');
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalFile, JSON.stringify(journal));

    const old = new pg.Client({ connectionString: empty.connectionString });
    await old.connect();
    try {
      await migrate(drizzle(old), {
        migrationsFolder: folder,
        migrationsSchema: 'public',
        migrationsTable: 'schema_migrations',
      });
      await old.query(ROWS);
      const before = await snapshot(old);
      expect(Object.values(before).every((rows) => rows.length > 0)).toBe(true);

      await runMigrations(empty.connectionString);
      // Every row is still there with every value it had; columns later migrations add
      // (records.search_lower) are left out of the comparison.
      expect(sameColumns(await snapshot(old), before)).toEqual(before);
      const keys = await old.query<{ table: string; definition: string }>(
        `select conrelid::regclass::text as table, pg_get_constraintdef(oid) as definition
           from pg_constraint where contype = 'p' and conrelid = any($1::regclass[]) order by 1`,
        [Object.keys(before)],
      );
      for (const key of keys.rows) expect(key.definition, key.table).toBe('PRIMARY KEY (workspace_id, id)');
      // Still enforced: a comment on a record that is not there is refused ...
      await expect(
        old.query(
          `insert into comments (workspace_id, id, record_id, text, author) values ('ws_1', 'cmt_x', 'rec_none', 'x', '{}')`,
        ),
      ).rejects.toThrow(/comments_record_fk/);
      // ... and deleting a record still deletes its comments and call logs.
      await old.query(`delete from deals where record_id = 'rec_1'`);
      await old.query(`delete from tasks where record_id = 'rec_1'`);
      await old.query(`delete from records where id = 'rec_1'`);
      const left = await old.query<{ n: number }>(
        `select (select count(*) from comments) + (select count(*) from call_logs) as n`,
      );
      expect(Number(left.rows[0]!.n)).toBe(0);
    } finally {
      await old.end();
    }
  });
});

/** Rows in every table the migration changes, and those they hang from. */
const ROWS = `
  insert into workspaces (id, name) values ('ws_1', 'One'), ('ws_2', 'Two');
  insert into users (id, email, name) values ('usr_1', 'one@example.com', 'One');
  insert into folders (workspace_id, id, name) values ('ws_1', 'fld_1', 'People'), ('ws_2', 'fld_2', 'People');
  insert into records (workspace_id, id, folder_id, title) values ('ws_1', 'rec_1', 'fld_1', 'Ada'), ('ws_2', 'rec_2', 'fld_2', 'Bob');
  insert into comments (workspace_id, id, record_id, text, author) values ('ws_1', 'cmt_1', 'rec_1', 'Hi', '{"type":"user"}');
  insert into call_logs (workspace_id, id, record_id, called_at) values ('ws_1', 'call_1', 'rec_1', now());
  insert into pipelines (workspace_id, id, name) values ('ws_1', 'pl_1', 'Sales');
  insert into stages (workspace_id, id, pipeline_id, name, position) values ('ws_1', 'stg_1', 'pl_1', 'New', 0);
  insert into deals (workspace_id, id, pipeline_id, stage_id, record_id) values ('ws_1', 'deal_1', 'pl_1', 'stg_1', 'rec_1');
  insert into tasks (workspace_id, id, title, record_id) values ('ws_1', 'task_1', 'Call', 'rec_1');
  insert into webhooks (workspace_id, id, url, events, secret) values ('ws_1', 'wh_1', 'https://example.com', '{record.created}', 'whsec_x');
  insert into events (workspace_id, id, type, payload, occurred_at) values ('ws_1', 'evt_1', 'record.created', '{}', now());
  insert into deliveries (workspace_id, id, webhook_id, event_id) values ('ws_1', 'dlv_1', 'wh_1', 'evt_1');
  insert into delivery_attempts (workspace_id, id, delivery_id, attempt, started_at, duration_ms) values ('ws_1', 'att_1', 'dlv_1', 1, now(), 12);
  insert into workflows (workspace_id, id, name, trigger_type, actions, created_by) values ('ws_1', 'wf_1', 'Flow', 'INCOMING_WEBHOOK', '[]', 'usr_1');
  insert into workflow_runs (workspace_id, id, workflow_id, trigger, input, actions) values ('ws_1', 'run_1', 'wf_1', '{}', '{}', '[]');
`;

const CHANGED = [
  'folders',
  'records',
  'comments',
  'call_logs',
  'pipelines',
  'stages',
  'deals',
  'tasks',
  'webhooks',
  'deliveries',
  'delivery_attempts',
  'events',
  'workflows',
  'workflow_runs',
];

/** `after`'s rows with only the columns `before`'s rows have. */
function sameColumns(after: Record<string, unknown[]>, before: Record<string, unknown[]>) {
  return Object.fromEntries(
    Object.entries(after).map(([table, rows]) => [
      table,
      rows.map((row, i) => {
        const was = (before[table]?.[i] as { row?: Record<string, unknown> } | undefined)?.row ?? {};
        const now = (row as { row: Record<string, unknown> }).row;
        return { row: Object.fromEntries(Object.keys(was).map((key) => [key, now[key]])) };
      }),
    ]),
  );
}

async function snapshot(db: pg.Client): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of CHANGED) {
    rows[table] = (
      await db.query(`select to_jsonb(t) as row from ${table} t order by workspace_id, id`)
    ).rows;
  }
  return rows;
}
