/**
 * The automation engine's benchmark (`node --import tsx src/workflows/engine.ts` from bench/,
 * `pnpm --filter @crm/bench bench:engine`; part of `pnpm bench`):
 *
 * 1. A three-step workflow (CREATE_RECORD, ADD_COMMENT, CREATE_TASK) triggered over HTTP:
 *    runs completed per second by one service process (API + worker).
 * 2. Runs waiting on a DELAY (default 100,000), their `resumeAt` spread evenly over a window
 *    (default 300 s), once for each step after it (a CONDITION, then a CREATE_TASK): the lag from `resumeAt` to the moment the step after the delay starts,
 *    p50/p99, measured from the runs' own step records; the worker's RSS sampled every second
 *    meanwhile (largest, and at the window's start and end: flat or growing).
 *
 * Writes bench/results/engine.json and prints a table. Everything it starts is stopped at the
 * end, also on failure.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missing } from '@crm/domain';
import type pg from 'pg';
import { createCleanups, runBench } from '../cleanup.ts';
import { openBenchDatabase } from '../database.ts';
import { intEnv } from '../env.ts';
import { toJson } from '../report.ts';
import { createFixture } from '../seed.ts';
import { percentile, round, sleep } from '../time.ts';
import { launchService } from './service.ts';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESULTS_FILE = join(benchDir, 'results', 'engine.json');

/** The step after the DELAY: a cheap one (CONDITION) and one that writes (CREATE_TASK). */
const AFTER_DELAY = {
  CONDITION: { type: 'CONDITION', left: '{{ trigger.body.n }}', operator: 'EXISTS' },
  CREATE_TASK: { type: 'CREATE_TASK', title: 'Follow up {{ trigger.body.n }}', dueInDays: 2 },
} as const;
type AfterDelay = keyof typeof AFTER_DELAY;

const config = {
  /** Runs of the three-step workflow. */
  threeStepRuns: intEnv('BENCH_ENGINE_RUNS', 3_000, 1),
  /** Runs that wait on a DELAY. */
  waitingRuns: intEnv('BENCH_ENGINE_WAITING_RUNS', 100_000, 1),
  /** The window their resumeAt is spread over, and how long after queueing it starts. */
  windowSeconds: intEnv('BENCH_ENGINE_WINDOW_SECONDS', 300, 1),
  /** Trigger calls in flight at once. */
  connections: intEnv('BENCH_ENGINE_CONNECTIONS', 32, 1),
  drainWaitMs: intEnv('BENCH_ENGINE_DRAIN_WAIT_MS', 1_800_000, 1),
  /** The steps after the DELAY, a series each (`BENCH_ENGINE_AFTER_DELAY`, comma-separated). */
  afterDelay: afterDelayOf(process.env.BENCH_ENGINE_AFTER_DELAY ?? 'CONDITION,CREATE_TASK'),
};
function afterDelayOf(list: string): AfterDelay[] {
  const names = list.split(',').map((name) => name.trim());
  for (const name of names)
    if (!(name in AFTER_DELAY))
      throw new Error(
        `BENCH_ENGINE_AFTER_DELAY: ${name} is not one of ${Object.keys(AFTER_DELAY).join(', ')}`,
      );
  return names as AfterDelay[];
}
const TARGETS = { resumeLagP99Ms: 5_000, workerRssMiB: 250 };

const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[engine +${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);
const cleanups = createCleanups(log);

/** The service with the worker's settings of this benchmark: 16 jobs at a time, polled every 100 ms. */
const launch = (connectionString: string, role: 'all' | 'api' | 'worker') =>
  launchService(connectionString, role, cleanups, {
    WORKER_POLL_INTERVAL_MS: '100',
    WORKER_CONCURRENCY: '16',
  });

/** Resident memory of a process, MiB (Linux). */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return round(kb / 1024, 1);
}

/** `count` trigger calls with `connections` in flight; the body of call i is `body(i)`. */
async function triggerMany(url: string, count: number, body: (i: number) => unknown): Promise<number> {
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: config.connections }, async () => {
      for (let i = next++; i < count; i = next++) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body(i)),
        });
        if (res.status !== 200) throw new Error(`trigger answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  return (performance.now() - began) / 1000;
}

interface WaitingResult {
  runs: number;
  queueSeconds: number;
  queuedPerSecond: number;
  reachedWaitingBeforeWindowMs: number;
  resumeLagMs: { p50: number; p99: number; max: number };
  workerRssMiB: { largest: number; windowStart: number | null; windowEnd: number | null };
}

/**
 * `config.waitingRuns` runs of a workflow of a DELAY then `after`, their `resumeAt` spread over
 * the window: the lag from `resumeAt` to the end of the DELAY's step (when the run goes on), and
 * the worker's RSS meanwhile. API and worker are processes of their own, stopped at the end.
 */
async function waitingShape(
  connectionString: string,
  pool: pg.Pool,
  headers: Record<string, string>,
  after: AfterDelay,
  count: (workflowId: string, status?: string) => Promise<number>,
  until: (what: string, done: () => Promise<boolean>) => Promise<void>,
): Promise<WaitingResult> {
  const api = await launch(connectionString, 'api');
  const worker = await launch(connectionString, 'worker');
  const delayed = await fetch(`${api.url}/api/v1/workflows`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: `Follow up later (${after})`,
      trigger: { type: 'INCOMING_WEBHOOK' },
      rateLimitPerMinute: 1_000_000,
      actions: [{ type: 'DELAY', until: '{{ trigger.body.at }}' }, AFTER_DELAY[after]],
    }),
  });
  if (delayed.status !== 201)
    throw new Error(`saving a workflow answered ${delayed.status}: ${await delayed.text()}`);
  const waitFlow = ((await delayed.json()) as { data: { id: string; trigger: { url: string } } }).data;
  // The window starts once every run can have reached its DELAY: on 2 cores, queueing and the
  // first step took 3 ms a run together (100,000 in 305 s, 2026-11-27); twice that, and a
  // minute, so that no run reaches its DELAY after its moment (which would hide its lag).
  const windowStart = Date.now() + 60_000 + config.waitingRuns * 6;
  const windowMs = config.windowSeconds * 1000;
  log(`${config.waitingRuns} waiting runs then ${after}, resumeAt spread over ${config.windowSeconds} s`);
  const queueSeconds = await triggerMany(waitFlow.trigger.url, config.waitingRuns, (n) => ({
    n,
    at: new Date(windowStart + (windowMs * n) / config.waitingRuns).toISOString(),
  }));
  // Every run has recorded its DELAY: it waits, or (its moment come) it has gone on already.
  const recorded = async () => {
    const result = await pool.query<{ n: number }>(
      `select count(*)::int as n from workflow_runs
        where workflow_id = $1 and status in ('WAITING', 'SUCCEEDED')`,
      [waitFlow.id],
    );
    return (result.rows[0] ?? missing('result.rows[0]')).n;
  };
  await until('runs reaching their DELAY', async () => (await recorded()) >= config.waitingRuns);
  const reachedWaitingAt = Date.now();
  if (reachedWaitingAt > windowStart) log('warning: the window began before every run was waiting');
  const rss: { at: number; mib: number }[] = [];
  const sampler = setInterval(() => {
    void rssMiB(worker.process.pid ?? 0).then(
      (mib) => rss.push({ at: Date.now(), mib }),
      () => {},
    );
  }, 1_000);
  cleanups.push({ what: 'stopping the RSS sampler', run: async () => clearInterval(sampler) });
  await until('waiting runs', async () => (await count(waitFlow.id, 'SUCCEEDED')) >= config.waitingRuns);
  clearInterval(sampler);
  const lags = await pool.query<{ lag: number }>(
    `select extract(epoch from (s.finished_at - s.resume_at)) * 1000 as lag
       from workflow_run_steps s join workflow_runs r on r.workspace_id = s.workspace_id and r.id = s.run_id
      where r.workflow_id = $1 and s.path = '0'`,
    [waitFlow.id],
  );
  await Promise.all([api.stop(), worker.stop()]);
  const lag = lags.rows.map((row) => Number(row.lag)).sort((a, b) => a - b);
  const inWindow = rss.filter((s) => s.at >= windowStart && s.at <= windowStart + windowMs);
  return {
    runs: config.waitingRuns,
    queueSeconds: round(queueSeconds),
    queuedPerSecond: round(config.waitingRuns / queueSeconds, 0),
    reachedWaitingBeforeWindowMs: windowStart - reachedWaitingAt,
    resumeLagMs: {
      p50: round(percentile(lag, 50)),
      p99: round(percentile(lag, 99)),
      max: round(lag[lag.length - 1] ?? 0),
    },
    workerRssMiB: {
      largest: round(Math.max(...rss.map((s) => s.mib)), 1),
      windowStart: inWindow[0]?.mib ?? null,
      windowEnd: inWindow[inWindow.length - 1]?.mib ?? null,
    },
  };
}

async function main() {
  const startedAt = new Date();
  const loadAtStart = loadavg()[0] ?? missing('loadavg()[0]');
  const { database, pool, db } = await openBenchDatabase(log, cleanups);
  const fixture = await createFixture(db, pool);
  const headers = { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' };
  const count = async (workflowId: string, status?: string) => {
    const result = await pool.query<{ n: number }>(
      `select count(*)::int as n from workflow_runs where workflow_id = $1 ${status ? 'and status = $2' : ''}`,
      status ? [workflowId, status] : [workflowId],
    );
    return (result.rows[0] ?? missing('result.rows[0]')).n;
  };
  const until = async (what: string, done: () => Promise<boolean>) => {
    const deadline = Date.now() + config.drainWaitMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`${what}: not done in time`);
      await sleep(500);
    }
  };

  // 1. Three steps, API and worker in one process.
  const service = await launch(database.connectionString, 'all');
  const save = async (body: Record<string, unknown>) => {
    const res = await fetch(`${service.url}/api/v1/workflows`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ rateLimitPerMinute: 1_000_000, ...body }),
    });
    if (res.status !== 201) throw new Error(`saving a workflow answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { data: { id: string; trigger: { url: string } } }).data;
  };
  const threeStep = await save({
    name: 'Lead intake',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions: [
      {
        type: 'CREATE_RECORD',
        folderId: fixture.folderId,
        title: '{{ trigger.body.name }}',
        email: '{{ trigger.body.email }}',
      },
      { type: 'ADD_COMMENT', text: 'From the web form: {{ trigger.body.message }}' },
      { type: 'CREATE_TASK', title: 'Call {{ record.title }}', dueInDays: 1 },
    ],
  });
  log(`three-step workflow: ${config.threeStepRuns} runs`);
  const began = performance.now();
  const triggerSeconds = await triggerMany(threeStep.trigger.url, config.threeStepRuns, (i) => ({
    name: `Lead ${i}`,
    email: `lead-${i}@example.com`,
    message: 'Please call me back about the annual plan.',
  }));
  await until(
    'three-step runs',
    async () => (await count(threeStep.id, 'SUCCEEDED')) >= config.threeStepRuns,
  );
  const threeStepSeconds = (performance.now() - began) / 1000;
  await service.stop();

  // 2. Runs waiting on a DELAY, for each step after it: queued by an API process, brought to
  //    WAITING and resumed by a worker process of their own, whose memory is watched.
  const waiting: Record<string, WaitingResult> = {};
  for (const after of config.afterDelay) {
    waiting[after] = await waitingShape(database.connectionString, pool, headers, after, count, until);
  }
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
    threeStep: {
      runs: config.threeStepRuns,
      triggerSeconds: round(triggerSeconds),
      seconds: round(threeStepSeconds),
      runsPerSecond: round(config.threeStepRuns / threeStepSeconds, 0),
    },
    waiting,
    targets: Object.fromEntries(
      Object.entries(waiting).map(([after, w]) => [
        after,
        {
          resumeLagP99Ms: {
            target: TARGETS.resumeLagP99Ms,
            value: w.resumeLagMs.p99,
            met: w.resumeLagMs.p99 < TARGETS.resumeLagP99Ms,
          },
          workerRssMiB: {
            target: TARGETS.workerRssMiB,
            value: w.workerRssMiB.largest,
            met: w.workerRssMiB.largest < TARGETS.workerRssMiB,
          },
        },
      ]),
    ),
  };
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${toJson(results)}\n`);
  process.stdout.write(
    [
      '',
      'Automation engine',
      `  three-step workflow over HTTP: ${results.threeStep.runsPerSecond} runs completed/s (${config.threeStepRuns} runs, ${results.threeStep.seconds} s)`,
      ...Object.entries(waiting).flatMap(([after, w]) => [
        `  ${config.waitingRuns} runs on a DELAY then ${after}, resumeAt over ${config.windowSeconds} s: resume lag p50 ${w.resumeLagMs.p50} ms, p99 ${w.resumeLagMs.p99} ms, max ${w.resumeLagMs.max} ms  target p99 < ${TARGETS.resumeLagP99Ms}`,
        `    worker RSS: largest ${w.workerRssMiB.largest} MiB, window start ${w.workerRssMiB.windowStart} MiB, end ${w.workerRssMiB.windowEnd} MiB  target < ${TARGETS.workerRssMiB}`,
      ]),
      `  results: ${RESULTS_FILE}`,
      '',
    ].join('\n'),
  );
}

await runBench(main, cleanups, log);
