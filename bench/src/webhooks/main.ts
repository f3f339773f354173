/**
 * The outgoing-webhook benchmark (`node --import tsx src/webhooks/main.ts` from bench/):
 * graphile-worker's raw no-op job rate and add→start latency as the floor, then the real
 * service (API + worker) delivering record.created to a loopback receiver: deliveries/s
 * under a write burst, commit→receipt latency at a steady low rate, delivery capacity (a
 * backlog to several subscriptions drained by a worker), and exactly-once checks by event
 * id. Prints a table and writes bench/results/webhooks.json. Everything it starts is
 * stopped at the end, also on failure.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, schema } from '@crm/db';
import { missing, newId } from '@crm/domain';
import { createCleanups } from '../cleanup.ts';
import { openBenchDatabase } from '../database.ts';
import { intEnv } from '../env.ts';
import { type Child, startServiceProcess, waitUntilReady } from '../processes.ts';
import { toJson } from '../report.ts';
import { createFixture } from '../seed.ts';
import { round, sleep } from '../time.ts';
import { measureCapacity } from './capacity.ts';
import { checkExactlyOnce, measureLatency, measureThroughput } from './deliveries.ts';
import { loadGraphileWorker } from './graphile.ts';
import type { Api } from './load.ts';
import { createBurst } from './load.ts';
import { summarizeProfile } from './profile.ts';
import { measureRawQueue } from './raw-queue.ts';
import { Receiver } from './receiver.ts';
import { formatResults, type Target, type WebhookBenchResults } from './report.ts';
import { countStatements } from './sql-trace.ts';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = resolve(benchDir, '..');
const RESULTS_FILE = join(benchDir, 'results', 'webhooks.json');

const profileMode = process.env.BENCH_WEBHOOK_PROFILE ?? 'auto';
if (!['auto', 'always', 'never'].includes(profileMode))
  throw new Error(`BENCH_WEBHOOK_PROFILE must be auto, always or never, got ${profileMode}`);

/** The service's worker settings (apps/server/src/env.ts defaults), used for the raw floor too. */
const WORKER = { concurrency: 10, poolSize: 20, pollIntervalMs: 1_000 };

const config = {
  rawJobs: intEnv('BENCH_WEBHOOK_RAW_JOBS', 20_000),
  rawLatencyJobs: intEnv('BENCH_WEBHOOK_RAW_LATENCY_JOBS', 300),
  rawLatencyRate: intEnv('BENCH_WEBHOOK_RAW_LATENCY_RATE', 100),
  records: intEnv('BENCH_WEBHOOK_RECORDS', 10_000),
  backlogRecords: intEnv('BENCH_WEBHOOK_BACKLOG_RECORDS', 5_000),
  backlogSubscriptions: intEnv('BENCH_WEBHOOK_BACKLOG_SUBSCRIPTIONS', 4),
  connections: intEnv('BENCH_WEBHOOK_CONNECTIONS', 16),
  latencyRate: intEnv('BENCH_WEBHOOK_LATENCY_RATE', 50),
  latencySeconds: intEnv('BENCH_WEBHOOK_LATENCY_SECONDS', 10),
  profileRecords: intEnv('BENCH_WEBHOOK_PROFILE_RECORDS', 5_000),
  /** Longest wait for the deliveries of a burst once its writes are answered. */
  drainWaitMs: intEnv('BENCH_WEBHOOK_DRAIN_WAIT_MS', 120_000),
  sampleIntervalMs: intEnv('BENCH_WEBHOOK_SAMPLE_MS', 50),
};

const WARMUP_RECORDS = 300;

const TARGETS = { deliveriesPerSecond: 1_000, p50: 20, p99: 200 };

const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[webhooks +${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);

/** Undone in reverse order at the end, on failure, or on Ctrl-C. */
const cleanups = createCleanups(log);
const cleanUp = cleanups.cleanUp;

const hrtimeUs = () => Number(process.hrtime.bigint() / 1000n);

const TRACER = join(benchDir, 'src', 'trace-sql.mjs');

async function launchService(
  connectionString: string,
  extra: { cpuProfileDir?: string; sqlTraceFile?: string; worker?: boolean } = {},
): Promise<Child> {
  const port = await freePort();
  const child = startServiceProcess({
    repoRoot,
    url: `http://127.0.0.1:${port}`,
    env: {
      DATABASE_URL: connectionString,
      HOST: '127.0.0.1',
      PORT: String(port),
      ROLE: extra.worker === false ? 'api' : 'all',
      OPS_PORT: '0',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      WORKER_CONCURRENCY: String(WORKER.concurrency),
      DATABASE_POOL_SIZE: String(WORKER.poolSize),
      WORKER_POLL_INTERVAL_MS: String(WORKER.pollIntervalMs),
      LOG_LEVEL: 'warn',
    },
    ...(extra.cpuProfileDir ? { cpuProfileDir: extra.cpuProfileDir } : {}),
    ...(extra.sqlTraceFile ? { sqlTrace: { tracer: TRACER, file: extra.sqlTraceFile } } : {}),
  });
  cleanups.push({ what: 'stopping the service', run: () => child.stop() });
  await waitUntilReady(child);
  return child;
}

async function main(): Promise<WebhookBenchResults> {
  const startedAt = new Date();
  const loadAtStart = loadavg()[0] ?? missing('loadavg()[0]');
  if (loadAtStart > availableParallelism())
    log(
      `warning: load average ${loadAtStart.toFixed(2)} on ${availableParallelism()} CPUs: other work will skew the figures`,
    );
  const { database, pool, db } = await openBenchDatabase(log, cleanups);

  const graphile = await loadGraphileWorker(repoRoot, log);
  const rawQueue = await measureRawQueue(
    database.connectionString,
    graphile,
    {
      bulkJobs: config.rawJobs,
      latencyJobs: config.rawLatencyJobs,
      latencyRate: config.rawLatencyRate,
      ...WORKER,
    },
    log,
  );
  log(`  add→start p50 ${rawQueue.addToStart.p50} ms, p99 ${rawQueue.addToStart.p99} ms`);

  const fixture = await createFixture(db, pool);
  const receiver = await new Receiver().start();
  cleanups.push({ what: 'stopping the receiver', run: () => receiver.stop() });
  await db.insert(schema.webhooks).values({
    workspaceId: fixture.workspaceId,
    id: newId('webhook'),
    url: `${receiver.url}/hook`,
    events: ['record.created'],
    secret: `whsec_${randomBytes(24).toString('base64')}`,
  });

  log('starting the service (API + worker)');
  const traceDir = await mkdtemp(join(tmpdir(), 'crm-bench-sql-'));
  cleanups.push({
    what: 'removing the SQL trace',
    run: () => rm(traceDir, { recursive: true, force: true }),
  });
  const traceFile = join(traceDir, 'service.jsonl');
  await writeFile(traceFile, '');
  let service = await launchService(database.connectionString, { sqlTraceFile: traceFile });
  const api: Api = { url: service.url, apiKey: fixture.apiKey, folderId: fixture.folderId };

  // The warm-up is traced (every statement the service sends, start-up left out); deleting
  // the file switches tracing off before anything is measured.
  log(`warm-up: ${WARMUP_RECORDS} records, their SQL traced`);
  await writeFile(traceFile, '');
  const warm = await createBurst(api, WARMUP_RECORDS, 4, 'warm');
  if (warm.created !== WARMUP_RECORDS) throw new Error(`warm-up created ${warm.created} records`);
  if (!(await receiver.waitFor(WARMUP_RECORDS, 60_000)))
    throw new Error(`warm-up: ${receiver.arrivals.length} deliveries arrived:\n${service.output()}`);
  // The last attempts' transactions and job completions follow their receipt closely.
  await sleep(500);
  const sqlPerRecord = await countStatements(traceFile, WARMUP_RECORDS);
  await rm(traceFile, { force: true });
  await sleep(300);
  log(
    `  ${sqlPerRecord.statements} statements (${sqlPerRecord.transactions} transactions) per created and delivered record`,
  );

  log(
    `throughput: ${config.records.toLocaleString('en-US')} records through POST /api/v1/records, ${config.connections} connections`,
  );
  const throughput = await measureThroughput(
    api,
    receiver,
    pool,
    {
      records: config.records,
      connections: config.connections,
      tag: 'burst',
      waitMs: config.drainWaitMs,
      servicePid: service.process.pid,
      sampleIntervalMs: config.sampleIntervalMs,
    },
    log,
  );
  log(
    `  ${throughput.received} deliveries in ${throughput.seconds} s: ${throughput.deliveriesPerSecond}/s ` +
      `(${throughput.deliveriesPerSecondDuringWrites}/s while writing, ${throughput.drainDeliveriesPerSecond}/s draining)`,
  );

  log(`latency: ${config.latencyRate} records/s for ${config.latencySeconds} s, one at a time`);
  const latency = await measureLatency(api, receiver, {
    rate: config.latencyRate,
    seconds: config.latencySeconds,
    tag: 'paced',
    waitMs: 30_000,
  });
  log(`  commit→receipt p50 ${latency.commitToReceipt.p50} ms, p99 ${latency.commitToReceipt.p99} ms`);

  const backlogDeliveries = config.backlogRecords * config.backlogSubscriptions;
  log(
    `capacity: ${config.backlogRecords.toLocaleString('en-US')} records × ${config.backlogSubscriptions} subscriptions ` +
      `committed with no worker running, then ${backlogDeliveries.toLocaleString('en-US')} deliveries released at once`,
  );
  await service.stop();
  const backlogFixture = await createFixture(db, pool);
  for (let k = 0; k < config.backlogSubscriptions; k++) {
    await db.insert(schema.webhooks).values({
      workspaceId: backlogFixture.workspaceId,
      id: newId('webhook'),
      url: `${receiver.url}/backlog/${k}`,
      events: ['record.created'],
      secret: `whsec_${randomBytes(24).toString('base64')}`,
    });
  }
  const capacity = await measureCapacity(
    {
      api: { url: '', apiKey: backlogFixture.apiKey, folderId: backlogFixture.folderId },
      workspaceId: backlogFixture.workspaceId,
      records: config.backlogRecords,
      subscriptions: config.backlogSubscriptions,
      connections: config.connections,
      waitMs: config.drainWaitMs,
      startApi: () => launchService(database.connectionString, { worker: false }),
      startWorker: (file) => launchService(database.connectionString, { sqlTraceFile: file }),
      traceFile: join(traceDir, 'capacity.jsonl'),
    },
    receiver,
    pool,
    log,
  );
  log(
    `  ${capacity.received} deliveries in ${capacity.seconds} s: ${capacity.deliveriesPerSecond}/s; ` +
      `${capacity.cpuMsPerDelivery.service} ms service CPU and ${capacity.cpuMsPerDelivery.postgres} ms PostgreSQL CPU, ` +
      `${capacity.sqlPerDelivery.statements} statements per delivery`,
  );

  let profile: WebhookBenchResults['profile'];
  const farBelow = capacity.deliveriesPerSecond < TARGETS.deliveriesPerSecond / 2;
  if (profileMode === 'always' || (profileMode === 'auto' && farBelow)) {
    const reason = profileMode === 'always' ? 'BENCH_WEBHOOK_PROFILE=always' : 'throughput far below target';
    log(`profile (${reason}): restarting the service with --cpu-prof`);
    const profileDir = await mkdtemp(join(tmpdir(), 'crm-bench-prof-'));
    cleanups.push({
      what: 'removing the CPU profile',
      run: () => rm(profileDir, { recursive: true, force: true }),
    });
    service = await launchService(database.connectionString, { cpuProfileDir: profileDir });
    api.url = service.url;
    const before = receiver.arrivals.length;
    const warmProfiled = await createBurst(api, WARMUP_RECORDS, 4, 'warm2');
    if (!(await receiver.waitFor(before + warmProfiled.created, 60_000)))
      throw new Error(`profiled warm-up: deliveries missing:\n${service.output()}`);
    const fromUs = hrtimeUs();
    const profiled = await measureThroughput(
      api,
      receiver,
      pool,
      {
        records: config.profileRecords,
        connections: config.connections,
        tag: 'prof',
        waitMs: config.drainWaitMs,
        servicePid: service.process.pid,
        sampleIntervalMs: config.sampleIntervalMs,
      },
      log,
    );
    const toUs = hrtimeUs();
    await service.stop();
    profile = { reason, throughput: profiled, cpu: await summarizeProfile(profileDir, { fromUs, toUs }) };
    log(`  profiled: ${profiled.deliveriesPerSecond} deliveries/s under the profiler`);
  }

  const exactlyOnce = await checkExactlyOnce(pool, fixture.workspaceId, receiver, '/hook');
  const targets: Target[] = [
    {
      what: 'deliveries/s (capacity: backlog drain)',
      value: capacity.deliveriesPerSecond,
      unit: '/s',
      target: `>= ${TARGETS.deliveriesPerSecond}`,
      pass: capacity.deliveriesPerSecond >= TARGETS.deliveriesPerSecond,
    },
    {
      what: 'commit→receipt p50',
      value: latency.commitToReceipt.p50,
      unit: 'ms',
      target: `< ${TARGETS.p50} ms`,
      pass: latency.commitToReceipt.p50 < TARGETS.p50,
    },
    {
      what: 'commit→receipt p99',
      value: latency.commitToReceipt.p99,
      unit: 'ms',
      target: `< ${TARGETS.p99} ms`,
      pass: latency.commitToReceipt.p99 < TARGETS.p99,
    },
    {
      what: 'exactly once (by event id)',
      value: exactlyOnce.duplicateIds + exactlyOnce.missing + exactlyOnce.unknown,
      unit: 'anomalies',
      target: '0',
      pass: exactlyOnce.pass,
    },
    {
      what: 'exactly once (capacity, by subscription and event)',
      value: capacity.exactlyOnce.duplicates + capacity.exactlyOnce.missing + capacity.exactlyOnce.unknown,
      unit: 'anomalies',
      target: '0',
      pass: capacity.exactlyOnce.pass,
    },
  ];

  const finishedAt = new Date();
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    seconds: round((finishedAt.getTime() - startedAt.getTime()) / 1000),
    machine: {
      cpus: availableParallelism(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      loadAverage: { start: round(loadAtStart, 2), end: round(loadavg()[0] ?? missing('loadavg()[0]'), 2) },
    },
    database: database.server,
    settings: { ...config, profileMode, ...WORKER },
    rawQueue,
    sqlPerRecord,
    throughput,
    latency,
    capacity,
    exactlyOnce,
    targets,
    ...(profile ? { profile } : {}),
  };
}

let exitCode = 0;
try {
  const results = await main();
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${toJson(results)}\n`);
  process.stdout.write(`\n${formatResults(results)}\n\nResults written to ${RESULTS_FILE}\n`);
  const failed = results.targets.filter((t) => !t.pass);
  if (failed.length > 0) log(`below target: ${failed.map((t) => t.what).join(', ')}`);
  if (!results.exactlyOnce.pass) {
    log(`exactly-once check FAILED: ${JSON.stringify(results.exactlyOnce.examples)}`);
    exitCode = 1;
  }
  if (!results.capacity.exactlyOnce.pass) {
    log(`exactly-once check of the capacity phase FAILED: ${JSON.stringify(results.capacity.exactlyOnce)}`);
    exitCode = 1;
  }
} catch (error) {
  log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  log('stopping everything');
  await cleanUp();
  log('done');
}
process.exit(exitCode);
