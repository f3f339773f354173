/**
 * `pnpm bench`: seeds a fresh database, runs the real service and a bare node:http + pg
 * server side by side as child processes, load-tests three record routes against both,
 * measures `q` search latency at 100k and 1M records, prints a table and writes
 * bench/results/latest.json. Everything it starts is stopped at the end, also on failure.
 */
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePool, createDatabase, createPool, freePort } from '@crm/db';
import { SEARCH_TERMS } from './data.ts';
import { openDatabase } from './database.ts';
import { explainList, explainSearch, type PlanSummary } from './explain.ts';
import { checkParity } from './parity.ts';
import { type Child, startTsxChild, waitUntilReady } from './processes.ts';
import {
  type BenchResults,
  formatResults,
  type ScenarioResult,
  type SeedTiming,
  writeResults,
} from './report.ts';
import { combine, type LoadSettings, measure, type Run, SCENARIOS, type Target } from './scenarios.ts';
import { measureSearch, type SearchLatency } from './search.ts';
import { analyze, createFixture, seedRecords } from './seed.ts';
import { round } from './time.ts';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(benchDir, '..');
const RESULTS_FILE = join(benchDir, 'results', 'latest.json');

const intEnv = (name: string, fallback: number) => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a whole number, got ${value}`);
  return parsed;
};

/** Defaults fit the whole run in about 6 minutes on 2 cores; the env overrides are for quick trials. */
const config = {
  records: intEnv('BENCH_RECORDS', 100_000),
  largeRecords: intEnv('BENCH_LARGE_RECORDS', 1_000_000),
  load: {
    connections: intEnv('BENCH_CONNECTIONS', 16),
    duration: intEnv('BENCH_DURATION', 10),
    warmup: intEnv('BENCH_WARMUP', 3),
  } satisfies LoadSettings,
  searchRequests: intEnv('BENCH_SEARCH_REQUESTS', 200),
  /** Longest a search series may take before it is cut short (reported as such). */
  searchBudgetMs: intEnv('BENCH_SEARCH_BUDGET_MS', 90_000),
};

const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[bench +${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);

/** Undone in reverse order at the end, on failure, or on Ctrl-C. */
const cleanups: { what: string; run: () => Promise<void> }[] = [];
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const step = cleanups.pop()!;
      try {
        await step.run();
      } catch (error) {
        log(`warning: ${step.what} failed: ${String(error)}`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping everything`);
    void cleanUp().finally(() => {
      log('stopped after a signal');
      process.exit(130);
    });
  });
}

async function startServer(name: Target['name'], script: string, connectionString: string): Promise<Child> {
  const port = await freePort();
  const env: Record<string, string> = {
    DATABASE_URL: connectionString,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_POOL_SIZE: '10',
    ...(name === 'service' ? { RUN_WORKER: 'false', LOG_LEVEL: 'warn' } : {}),
  };
  const child = startTsxChild({ name, script, cwd: repoRoot, env, url: `http://127.0.0.1:${port}` });
  cleanups.push({ what: `stopping ${name}`, run: () => child.stop() });
  return child;
}

async function main(): Promise<BenchResults> {
  const startedAt = new Date();
  const database = await openDatabase(log);
  cleanups.push({ what: 'dropping the database', run: database.drop });
  const pool = createPool({
    connectionString: database.connectionString,
    max: 4,
    applicationName: 'crm-bench',
  });
  cleanups.push({ what: 'closing the pool', run: () => closePool(pool) });
  const db = createDatabase(pool);

  const fixture = await createFixture(db, pool);
  const seeding: SeedTiming[] = [];
  const to = new Date(Date.now() - 60_000);
  const from = new Date(to.getTime() - 3 * 365 * 24 * 3600_000);
  const seed = async (count: number, seedValue: number) => {
    const started = performance.now();
    let reported = 0;
    const ids = await seedRecords(pool, {
      ...fixture,
      count,
      seed: seedValue,
      from,
      to,
      onProgress: (done) => {
        if (done - reported >= 100_000 || done === count) {
          reported = done;
          log(`  seeded ${done.toLocaleString('en-US')} / ${count.toLocaleString('en-US')}`);
        }
      },
    });
    await analyze(pool);
    seeding.push({ records: count, seconds: round((performance.now() - started) / 1000) });
    return ids;
  };
  log(`seeding ${config.records.toLocaleString('en-US')} records`);
  const recordIds = await seed(config.records, 1);
  const plans: PlanSummary[] = [await explainList(pool, fixture.workspaceId)];

  log('starting the service and the bare server');
  const service = await startServer('service', 'apps/server/src/main.ts', database.connectionString);
  const bare = await startServer('bare', 'bench/src/bare-server.ts', database.connectionString);
  await Promise.all([waitUntilReady(service), waitUntilReady(bare)]);
  const targets: Record<Target['name'], Target> = {
    service: { name: 'service', url: service.url },
    bare: { name: 'bare', url: bare.url },
  };
  await checkParity([targets.service, targets.bare], fixture.apiKey, fixture.folderId, recordIds[0]!);
  log('both servers answer alike');

  const liveRecords = async () =>
    Number(
      (await pool.query<{ n: string }>('select count(*) as n from records where trashed_at is null')).rows[0]!
        .n,
    );
  const search: SearchLatency[] = [];
  const runSearch = async () => {
    const records = await liveRecords();
    log(
      `q search: ${config.searchRequests} sequential requests at ${records.toLocaleString('en-US')} records`,
    );
    // One unmeasured pass over the terms warms the service and the buffer cache.
    await measureSearch(service.url, fixture.apiKey, records, SEARCH_TERMS.length, config.searchBudgetMs);
    search.push(
      await measureSearch(service.url, fixture.apiKey, records, config.searchRequests, config.searchBudgetMs),
    );
  };
  await runSearch();

  const scenarios: ScenarioResult[] = [];
  const context = { apiKey: fixture.apiKey, folderId: fixture.folderId, recordIds };
  for (const [index, scenario] of SCENARIOS.entries()) {
    // A B B A: drift on a busy machine weighs on both servers alike; who starts alternates.
    const [first, second] = index % 2 === 0 ? (['service', 'bare'] as const) : (['bare', 'service'] as const);
    const order: Target['name'][] = [first, second, second, first];
    const runs: Record<Target['name'], Run[]> = { service: [], bare: [] };
    for (const [step, name] of order.entries()) {
      log(`${scenario.id} against ${name} (run ${runs[name].length + 1} of 2)`);
      // The second run of a server follows its first closely or idles only ~15 s: a short warm-up does.
      const settings = { ...config.load, warmup: runs[name].length === 0 ? config.load.warmup : 1 };
      runs[name].push(await measure(scenario, targets[name], context, settings, `${name}${index}r${step}`));
    }
    const measured = { service: combine('service', runs.service), bare: combine('bare', runs.bare) };
    const ratio = measured.service.requestsPerSecond / measured.bare.requestsPerSecond;
    scenarios.push({
      id: scenario.id,
      label: scenario.label,
      target: scenario.target,
      order,
      service: measured.service,
      bare: measured.bare,
      ratio: round(ratio, 3),
      meetsTarget: ratio >= scenario.target,
    });
    log(
      `  service ${measured.service.requestsPerSecond} req/s, bare ${measured.bare.requestsPerSecond} req/s, ratio ${ratio.toFixed(2)}`,
    );
  }
  await bare.stop();

  const missing = config.largeRecords - (await liveRecords());
  if (missing > 0) {
    log(`seeding ${missing.toLocaleString('en-US')} more records`);
    await seed(missing, 2);
  }
  await runSearch();

  const explainTerms = [
    SEARCH_TERMS.find((t) => t.kind === 'common')!,
    SEARCH_TERMS.find((t) => t.kind === 'rare')!,
    SEARCH_TERMS.find((t) => t.kind === 'none')!,
  ];
  for (const term of explainTerms) {
    log(`EXPLAIN for q=${term.term}`);
    plans.push(await explainSearch(pool, fixture.workspaceId, term));
  }
  log('EXPLAIN for the plain list');
  plans.push(await explainList(pool, fixture.workspaceId));

  const finishedAt = new Date();
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    seconds: round((finishedAt.getTime() - startedAt.getTime()) / 1000),
    machine: {
      cpus: availableParallelism(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    },
    database: database.server,
    settings: { ...config.load, searchRequests: config.searchRequests },
    seeding,
    scenarios,
    search,
    plans,
  };
}

let exitCode = 0;
try {
  const results = await main();
  await writeResults(RESULTS_FILE, results);
  process.stdout.write(`\n${formatResults(results)}\n\nResults written to ${RESULTS_FILE}\n`);
  const failed = results.scenarios.filter((s) => !s.meetsTarget);
  if (failed.length > 0)
    log(`below target: ${failed.map((s) => `${s.id} ${s.ratio}x < ${s.target}x`).join(', ')}`);
} catch (error) {
  log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  log('stopping everything');
  await cleanUp();
  log('done');
}
process.exit(exitCode);
