/**
 * The incoming-webhook benchmark (`node --import tsx src/workflows/main.ts` from bench/):
 * accepted trigger calls per second (POST /api/webhooks/trigger/{id}, answered 200 once the
 * run is durably queued) and accept → run-start latency. Prints a table and writes
 * bench/results/workflows.json. Everything it starts is stopped at the end, also on failure.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorkflow, createWorkflowInput, missing, rightsOf } from '@crm/domain';
import autocannon, { type Result } from 'autocannon';
import { createCleanups, runBench } from '../cleanup.ts';
import { openBenchDatabase } from '../database.ts';
import { intEnv } from '../env.ts';
import { withOtherLoad } from '../load.ts';
import type { Child } from '../processes.ts';
import { toJson } from '../report.ts';
import { createFixture } from '../seed.ts';
import { percentile, round, sleep } from '../time.ts';
import { measureCpu } from './cpu.ts';
import { launchService } from './service.ts';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESULTS_FILE = join(benchDir, 'results', 'workflows.json');

const config = {
  connections: intEnv('BENCH_TRIGGER_CONNECTIONS', 16, 1),
  seconds: intEnv('BENCH_TRIGGER_SECONDS', 10, 1),
  warmupSeconds: intEnv('BENCH_TRIGGER_WARMUP_SECONDS', 3, 1),
  latencyRate: intEnv('BENCH_TRIGGER_LATENCY_RATE', 50, 1),
  latencySeconds: intEnv('BENCH_TRIGGER_LATENCY_SECONDS', 10, 1),
  drainWaitMs: intEnv('BENCH_TRIGGER_DRAIN_WAIT_MS', 180_000, 1),
};
const TARGETS = { acceptedPerSecond: 2_000, startP50Ms: 50 };

const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[workflows +${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);
const cleanups = createCleanups(log);

/** A lead posted by a web form: what a trigger body typically looks like. */
const FORM = JSON.stringify({
  source: 'web',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  company: 'Analytical Engines',
  message: 'Please call me back about the annual plan.',
});

interface Burst {
  accepted: number;
  /** CPU milliseconds per accepted call, service and PostgreSQL. */
  cpuMsPerCall?: { service: number; postgres: number };
  refused: number;
  perSecond: number;
  latencyP50: number;
  latencyP99: number;
  otherCores?: number;
}

/** As many trigger calls as `connections` keep-alive connections allow, for `seconds`. */
async function burst(child: Child, path: string, seconds: number): Promise<Burst> {
  const url = `${child.url}${path}`;
  const { result: measured, cpu } = await measureCpu(child.process.pid, () =>
    withOtherLoad(
      async (): Promise<Result> =>
        await autocannon({
          url,
          connections: config.connections,
          duration: seconds,
          timeout: 10,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: FORM,
        }),
    ),
  );
  const { result, otherCores } = measured;
  const accepted = result['2xx'];
  return {
    ...(cpu && accepted > 0
      ? {
          cpuMsPerCall: {
            service: round((cpu.service * 1000) / accepted, 2),
            postgres: round((cpu.postgres * 1000) / accepted, 2),
          },
        }
      : {}),
    accepted,
    refused: result.non2xx + result.errors + result.timeouts,
    perSecond: round(accepted / seconds, 0),
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    ...(otherCores !== undefined ? { otherCores } : {}),
  };
}

async function main() {
  const startedAt = new Date();
  const loadAtStart = loadavg()[0] ?? missing('loadavg()[0]');
  const { database, pool, db } = await openBenchDatabase(log, cleanups);
  const fixture = await createFixture(db, pool);
  const actor = {
    workspaceId: fixture.workspaceId,
    userId: fixture.userId,
    userName: 'Bench Owner',
    role: 'OWNER' as const,
    apiKeyId: null,
    scopes: rightsOf('OWNER'),
    folderIds: null,
  };
  // One cheap step, so what is measured is accepting and starting runs, not CRM writes.
  const workflow = await createWorkflow(
    db,
    actor,
    createWorkflowInput.parse({
      name: 'Web form lead',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CONDITION', left: '{{ trigger.body.source }}', operator: 'EQUALS', right: 'web' }],
      rateLimitPerMinute: 1_000_000,
    }),
    { baseUrl: '', checkOutboundUrl: async () => {} },
  );
  const path = `/api/webhooks/trigger/${workflow.id}`;
  const countRuns = async (status?: string) => {
    const result = await pool.query<{ n: number }>(
      `select count(*)::int as n from workflow_runs where workflow_id = $1 ${status ? 'and status = $2' : ''}`,
      status ? [workflow.id, status] : [workflow.id],
    );
    return (result.rows[0] ?? missing('result.rows[0]')).n;
  };
  const drain = async () => {
    const began = performance.now();
    const deadline = Date.now() + config.drainWaitMs;
    while ((await countRuns('SUCCEEDED')) < (await countRuns())) {
      if (Date.now() > deadline) throw new Error('runs did not finish in time');
      await sleep(200);
    }
    return (performance.now() - began) / 1000;
  };

  // 1. The API alone (the worker runs elsewhere: docs/operations.md, "Roles"): the accept
  // path's own rate.
  log('API-only service: accept burst');
  const apiOnly = await launchService(database.connectionString, 'api', cleanups);
  await burst(apiOnly, path, config.warmupSeconds);
  const acceptApiOnly = await burst(apiOnly, path, config.seconds);
  await apiOnly.stop();

  // 2. The default: API and worker in one process; the queued runs start while calls arrive.
  log('API + worker service: draining what is queued, then the accept burst');
  const service = await launchService(database.connectionString, 'all', cleanups);
  const backlog = await countRuns();
  const backlogDrainSeconds = await drain();
  await burst(service, path, config.warmupSeconds);
  await drain();
  const before = await countRuns('SUCCEEDED');
  const acceptWithWorker = await burst(service, path, config.seconds);
  const finishedDuringBurst = (await countRuns('SUCCEEDED')) - before;
  const burstDrainSeconds = await drain();

  // 3. Accept → run start at a steady rate, one call at a time.
  log(`latency: ${config.latencyRate} calls/s for ${config.latencySeconds} s`);
  const answered = new Map<string, number>();
  const interval = 1000 / config.latencyRate;
  const total = config.latencyRate * config.latencySeconds;
  const began = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = began + i * interval - performance.now();
    if (wait > 0) await sleep(wait);
    const res = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: FORM,
    });
    const at = Date.now();
    if (res.status !== 200) throw new Error(`trigger answered ${res.status}: ${await res.text()}`);
    answered.set(((await res.json()) as { runId: string }).runId, at);
  }
  await drain();
  const rows = await pool.query<{ id: string; created: number; started: number }>(
    `select id, extract(epoch from created_at) * 1000 as created, extract(epoch from started_at) * 1000 as started
       from workflow_runs where id = any($1::text[])`,
    [[...answered.keys()]],
  );
  const queuedToStart = rows.rows.map((r) => Number(r.started) - Number(r.created)).sort((a, b) => a - b);
  const answerToStart = rows.rows
    .map((r) => Number(r.started) - (answered.get(r.id) ?? missing('answered.get(r.id)')))
    .sort((a, b) => a - b);
  const summary = (values: number[]) => ({
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    p99: round(percentile(values, 99)),
    max: round(values[values.length - 1] ?? 0),
  });
  const results = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: availableParallelism(),
      node: process.version,
      loadAverage: { start: round(loadAtStart, 2), end: round(loadavg()[0] ?? missing('loadavg()[0]'), 2) },
    },
    database: database.server,
    settings: config,
    workflow: { actions: ['CONDITION'], bodyBytes: Buffer.byteLength(FORM) },
    accept: {
      apiOnly: acceptApiOnly,
      withWorker: {
        ...acceptWithWorker,
        runsFinishedDuringBurst: finishedDuringBurst,
        drainSeconds: round(burstDrainSeconds),
      },
      backlogFromApiOnly: {
        runs: backlog,
        drainSeconds: round(backlogDrainSeconds),
        runsPerSecond: round(backlog / backlogDrainSeconds, 0),
      },
    },
    latency: {
      calls: rows.rows.length,
      queuedToStartMs: summary(queuedToStart),
      answerToStartMs: summary(answerToStart),
    },
    targets: {
      acceptedPerSecond: {
        target: TARGETS.acceptedPerSecond,
        apiOnly: acceptApiOnly.perSecond,
        withWorker: acceptWithWorker.perSecond,
        met: acceptApiOnly.perSecond >= TARGETS.acceptedPerSecond,
      },
      startP50Ms: {
        target: TARGETS.startP50Ms,
        value: summary(answerToStart).p50,
        met: summary(answerToStart).p50 < TARGETS.startP50Ms,
      },
    },
  };
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${toJson(results)}\n`);
  const lines = [
    '',
    'Incoming webhooks (POST /api/webhooks/trigger/{id}, 16 connections)',
    `  accepted/s, API only:        ${acceptApiOnly.perSecond}  (p50 ${acceptApiOnly.latencyP50} ms, p99 ${acceptApiOnly.latencyP99} ms, refused ${acceptApiOnly.refused})  target ≥ ${TARGETS.acceptedPerSecond}`,
    `  CPU per accepted call, API only: service ${acceptApiOnly.cpuMsPerCall?.service ?? '?'} ms, PostgreSQL ${acceptApiOnly.cpuMsPerCall?.postgres ?? '?'} ms`,
    `  accepted/s, API + worker:    ${acceptWithWorker.perSecond}  (runs finished meanwhile ${finishedDuringBurst}, rest drained in ${round(burstDrainSeconds)} s)`,
    `  backlog of ${backlog} runs drained at ${results.accept.backlogFromApiOnly.runsPerSecond} runs/s`,
    `  answer → run start:          p50 ${results.latency.answerToStartMs.p50} ms, p95 ${results.latency.answerToStartMs.p95} ms, p99 ${results.latency.answerToStartMs.p99} ms  target p50 < ${TARGETS.startP50Ms}`,
    `  queued (commit) → run start: p50 ${results.latency.queuedToStartMs.p50} ms, p99 ${results.latency.queuedToStartMs.p99} ms`,
    `  results: ${RESULTS_FILE}`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

await runBench(main, cleanups, log);
