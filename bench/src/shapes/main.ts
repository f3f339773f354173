/**
 * `pnpm --filter @crm/bench bench:search`: the `q` search on data of several shapes at
 * 1,000,000 records (README, "Search shapes"). Seeds a fresh database (no VACUUM: autovacuum
 * alone, as a service's table has), starts the service as `npm start` does, fills a workspace
 * through `POST /records/batch` and changes 30 % of two workspaces' records through
 * `PATCH /records/batch`, then reads every case of series.ts page by page and prints p50 and
 * p95 by shape. Writes bench/results/search.json. Everything it starts is stopped at the end.
 *
 * Last, the upgrade to lower-cased search texts (migration 0024): 20,000 records with notes
 * given back a search text as an earlier version wrote it, then lower-cased by the worker's
 * task (`lowerSearchTexts`) a batch at a time, records per second reported.
 *
 * BENCH_SEARCH_RECORDS sets the table's size (default 1,000,000). With DATABASE_URL and
 * BENCH_KEEP_DATABASE=1 the database is kept; BENCH_SEARCH_REUSE=<its URL> then measures it
 * again without seeding.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePool, createDatabase, createPool, freePort } from '@crm/db';
import { createApiKey, lowerSearchTexts } from '@crm/domain';
import type pg from 'pg';
import { createCleanups } from '../cleanup.ts';
import { openBenchDatabase } from '../database.ts';
import { intEnv } from '../env.ts';
import { closeHttpClients } from '../http-client.ts';
import { startTsxChild, waitUntilReady } from '../processes.ts';
import { round } from '../time.ts';
import { fillThroughApi, patchThroughApi } from './fill.ts';
import { createShapeWorkspaces, type ShapeFolder, type ShapeWorkspace, seedTimeline } from './seed.ts';
import { runCases, searchCases, summarize, TARGET_P95_MS } from './series.ts';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = resolve(benchDir, '..');
const RESULTS_FILE = join(benchDir, 'results', 'search.json');
const total = intEnv('BENCH_SEARCH_RECORDS', 1_000_000, 10_000);

const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[bench:search +${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);
const cleanups = createCleanups(log);

/** The workspaces of a database seeded earlier, each with a new key. */
async function loadWorkspaces(pool: pg.Pool): Promise<ShapeWorkspace[]> {
  const db = createDatabase(pool);
  const rows = await pool.query<{ id: string; name: string; user_id: string; records: string }>(
    `select w.id, w.name, m.user_id, (select count(*) from records r where r.workspace_id = w.id) as records
       from workspaces w join memberships m on m.workspace_id = w.id and m.role = 'OWNER'
      where w.name like 'Shapes %' order by w.created_at`,
  );
  const workspaces: ShapeWorkspace[] = [];
  for (const row of rows.rows) {
    const { secret } = await createApiKey(db, {
      workspaceId: row.id,
      userId: row.user_id,
      name: 'bench again',
    });
    const folders = await pool.query<{ id: string; name: string; fields: ShapeFolder['fields'] }>(
      'select id, name, fields from folders where workspace_id = $1 order by created_at',
      [row.id],
    );
    const key = row.name.replace(/^Shapes /, '');
    workspaces.push({
      key,
      workspaceId: row.id,
      userId: row.user_id,
      apiKey: secret,
      records: Number(row.records),
      filled: key === 'api' ? 'api' : 'sql',
      folders: folders.rows.map((f) => ({
        id: f.id,
        name: f.name,
        kind: f.name === 'People' ? 'people' : f.name === 'Companies' ? 'companies' : 'leads',
        fields: f.fields,
        share: 0,
        notes: f.fields.some((d) => d.key === 'notes'),
      })),
    });
  }
  return workspaces;
}

async function startService(connectionString: string) {
  const port = await freePort();
  const child = startTsxChild({
    name: 'service',
    script: 'apps/server/scripts/start.mjs',
    loader: 'script',
    cwd: repoRoot,
    url: `http://127.0.0.1:${port}`,
    env: {
      DATABASE_URL: connectionString,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_POOL_SIZE: '10',
      OPS_PORT: '0',
      LOG_LEVEL: 'warn',
    },
  });
  cleanups.push({ what: 'stopping the service', run: () => child.stop() });
  await waitUntilReady(child);
  return child;
}

/** Records of the largest workspace with notes, written as before 0024, then lowered. */
const LOWERED = 20_000;

/**
 * How fast the worker lower-cases the search texts an earlier version wrote (docs/operations.md,
 * "Upgrade notes"): LOWERED records of the workspace with notes get their search text back as
 * it was written before (capitalised words), then `lowerSearchTexts` runs until none is left.
 */
async function measureLowering(pool: pg.Pool, workspaces: ShapeWorkspace[]) {
  const big = workspaces.find((w) => w.key === 'big') ?? workspaces[0];
  if (!big) throw new Error('no workspace to lower search texts in');
  await pool.query(
    `update records set search_text = initcap(search_text)
      where workspace_id = $1 and id in (select id from records where workspace_id = $1 order by id limit $2)`,
    [big.workspaceId, LOWERED],
  );
  const db = createDatabase(pool);
  const started = performance.now();
  let records = 0;
  for (let written = 1; written > 0; ) {
    written = await lowerSearchTexts(db);
    records += written;
  }
  return { records, seconds: round((performance.now() - started) / 1000) };
}

async function main() {
  const startedAt = new Date();
  const reuse = process.env.BENCH_SEARCH_REUSE;
  let connectionString: string;
  let pool: pg.Pool;
  let workspaces: ShapeWorkspace[];
  const seeding: { step: string; seconds: number }[] = [];
  const timed = async <T>(step: string, work: () => Promise<T>) => {
    const started = performance.now();
    const result = await work();
    seeding.push({ step, seconds: round((performance.now() - started) / 1000) });
    log(`${step}: ${round((performance.now() - started) / 1000)} s`);
    return result;
  };
  let service: Awaited<ReturnType<typeof startService>>;
  if (reuse) {
    connectionString = reuse;
    pool = createPool({ connectionString, max: 4, applicationName: 'crm-bench' });
    cleanups.push({ what: 'closing the pool', run: () => closePool(pool) });
    workspaces = await loadWorkspaces(pool);
    service = await startService(connectionString);
  } else {
    const opened = await openBenchDatabase(log, cleanups);
    connectionString = opened.database.connectionString;
    pool = opened.pool;
    workspaces = await createShapeWorkspaces(opened.db, pool, total);
    const to = new Date(Date.now() - 3_600_000);
    const from = new Date(to.getTime() - 3 * 365 * 86_400_000);
    let reported = 0;
    await timed('seed by SQL, three years', () =>
      seedTimeline(pool, workspaces, from, to, (done, all) => {
        if (done - reported >= 100_000 || done === all) {
          reported = done;
          log(`  ${done.toLocaleString('en-US')} / ${all.toLocaleString('en-US')}`);
        }
      }),
    );
    service = await startService(connectionString);
    for (const w of workspaces.filter((w) => w.filled === 'api')) {
      reported = 0;
      await timed(`${w.key}: ${w.records.toLocaleString('en-US')} records through POST /records/batch`, () =>
        fillThroughApi(service.url, w, (done, all) => {
          if (done - reported >= 20_000 || done === all) {
            reported = done;
            log(`  ${done.toLocaleString('en-US')} / ${all.toLocaleString('en-US')}`);
          }
        }),
      );
    }
    for (const key of ['big', 'api']) {
      const w = workspaces.find((x) => x.key === key);
      if (!w) continue;
      await timed(`${key}: 30 % of its records through PATCH /records/batch`, () =>
        patchThroughApi(service.url, pool, w, 0.3, () => {}),
      );
    }
  }
  const cases = searchCases(workspaces);
  log(`warming: the first page of ${cases.length} cases`);
  await runCases(
    service.url,
    cases.map((c) => ({ ...c, pages: 1 })),
  );
  log(`measuring: ${cases.length} cases, page by page`);
  const samples = await runCases(service.url, cases);
  const shapes = summarize(samples);
  const tables = await pool.query<{ records: string; size: string }>(
    `select (select count(*) from records)::text as records, pg_size_pretty(pg_total_relation_size('records')) as size`,
  );
  const lowering = await measureLowering(pool, workspaces);
  log(`lower_search_texts: ${lowering.records} records with notes in ${lowering.seconds} s`);
  const results = {
    startedAt: startedAt.toISOString(),
    records: Number(tables.rows[0]?.records),
    tableSize: tables.rows[0]?.size,
    targetP95Ms: TARGET_P95_MS,
    seeding,
    shapes,
    lowering: { ...lowering, perSecond: Math.round(lowering.records / lowering.seconds) },
  };
  console.log(
    `\nq search by shape at ${results.records.toLocaleString('en-US')} records (${results.tableSize})`,
  );
  console.log('shape                            first p50 / p95 / max      later p50 / p95 / max    target');
  for (const s of shapes) {
    const f = `${s.first.p50} / ${s.first.p95} / ${s.first.max}`;
    const l = s.later.requests ? `${s.later.p50} / ${s.later.p95} / ${s.later.max}` : '-';
    console.log(`${s.shape.padEnd(32)} ${f.padEnd(26)} ${l.padEnd(24)} ${s.met ? 'met' : 'MISSED'}`);
  }
  for (const s of shapes) {
    console.log(`\n${s.shape}, slowest:`);
    for (const x of s.slowest) console.log(`  ${x.ms} ms  page ${x.page}  ${x.rows} rows  ${x.label}`);
  }
  console.log(
    `\nlower_search_texts (upgrade to 0024): ${results.lowering.perSecond} records with notes a second`,
  );
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  log(`written to ${RESULTS_FILE}`);
}

try {
  await main();
} finally {
  closeHttpClients();
  await cleanups.cleanUp();
}
