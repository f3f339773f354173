// Shards a migrated database on a Citus coordinator by workspace (docs/scaling.md):
//
//   DATABASE_URL=postgres://…coordinator…/crm node --import tsx tooling/citus/distribute.ts
//
// Reference tables first (the global tables that every node reads), then every tenant table
// distributed by workspace_id, parents before the tables that point at them, all colocated
// with the first, so a workspace's rows of every table sit on the same node. Tables kept on
// the coordinator (rate-limit counters, the migrations table, the job queue) are left as they
// are. Prints each command it runs; tables already distributed are skipped, so it can run again.
import { closePool, createPool, GLOBAL_TABLES } from '@crm/db';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('set DATABASE_URL to the Citus coordinator');
  process.exit(2);
}
const client = createPool({ connectionString: url, max: 1 });
try {
  const done = new Set(
    (
      await client.query<{ name: string }>(
        `select logicalrelid::regclass::text as name from pg_dist_partition`,
      )
    ).rows.map((r) => r.name),
  );
  const run = async (command: string) => {
    console.log(`${command};`);
    await client.query(command);
  };
  const tables = (
    await client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' order by 1`,
    )
  ).rows.map((r) => r.name);
  const edges = (
    await client.query<{ source: string; target: string }>(
      `select c.relname as source, t.relname as target from pg_constraint con
         join pg_class c on c.oid = con.conrelid join pg_class t on t.oid = con.confrelid
         join pg_namespace n on n.oid = c.relnamespace
        where con.contype = 'f' and n.nspname = 'public' and c.relname <> t.relname`,
    )
  ).rows;
  /** `names` ordered so that every table comes after the tables it points at. */
  const parentsFirst = (names: string[]) => {
    const ordered: string[] = [];
    const visit = (name: string, path: Set<string>) => {
      if (ordered.includes(name) || !names.includes(name)) return;
      if (path.has(name)) throw new Error(`foreign keys form a cycle through ${name}`);
      path.add(name);
      for (const edge of edges.filter((e) => e.source === name)) visit(edge.target, path);
      path.delete(name);
      ordered.push(name);
    };
    for (const name of [...names].sort()) visit(name, new Set());
    return ordered;
  };
  const isGlobal = (name: string) => Object.hasOwn(GLOBAL_TABLES, name);
  const reference = parentsFirst(
    tables.filter(
      (t) => isGlobal(t) && GLOBAL_TABLES[t as keyof typeof GLOBAL_TABLES].placement === 'reference',
    ),
  );
  const tenant = parentsFirst(tables.filter((t) => !isGlobal(t)));
  for (const table of reference) {
    if (!done.has(table)) await run(`select create_reference_table('${table}')`);
  }
  // Citus distributes no table that a table it does not distribute points at, nor the
  // reverse: the foreign keys between tenant tables are dropped, the tables distributed, and
  // the keys made again (each includes workspace_id, so it holds within a shard).
  const pending = tenant.filter((t) => !done.has(t));
  const links = (
    await client.query<{ source: string; name: string; definition: string }>(
      `select c.relname as source, con.conname as name, pg_get_constraintdef(con.oid) as definition
         from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_class t on t.oid = con.confrelid
        where con.contype = 'f' and c.relname = any($1::text[]) and t.relname = any($2::text[])
        order by 1, 2`,
      [pending, tenant],
    )
  ).rows;
  for (const link of links) await run(`alter table ${link.source} drop constraint ${link.name}`);
  // `records` has a row trigger of its own (it clears a search signature that no longer fits
  // its text, migration 0028), which Citus distributes only when asked to: it touches no other
  // row, so it runs on each shard as it does on one server (docs/scaling.md).
  await run('set citus.enable_unsafe_triggers = on');
  const [first] = tenant;
  for (const table of pending) {
    const colocation = table === first ? `'none'` : `'${first}'`;
    await run(`select create_distributed_table('${table}', 'workspace_id', colocate_with => ${colocation})`);
  }
  for (const link of links)
    await run(`alter table ${link.source} add constraint ${link.name} ${link.definition}`);
} finally {
  await closePool(client);
}
