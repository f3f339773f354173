import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createApiKey, createWorkspace } from '@crm/domain';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET, budget } from '../testing/budget.ts';
import { eventually } from '../testing/receiver.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../testing/throwaway-postgres.ts';
import { type ServerProcess, startServerProcess } from '../testing/worker-process.ts';

/**
 * The automation engine under faults (docs/workflows.md, "Runs"): runs that branch, loop and
 * wait, executed by three worker processes of which one is SIGKILLed every 10 s (and started
 * again) while PostgreSQL is restarted once. Every run ends, SUCCEEDED; no step that changes
 * CRM data runs twice and none is lost (the records they create are counted exactly); an
 * HTTP_REQUEST is sent at least once, and again only when a worker was killed in its middle,
 * with the same Idempotency-Key. A deploy (every worker replaced) in the middle of a DELAY and
 * of an APPROVAL loses neither. With the workers left alone, a `* * * * *` schedule starts
 * exactly one run per minute (how late each was queued is printed).
 *
 * AUTOMATION_FAULT_RUNS (default 10,000) and AUTOMATION_SCHEDULE_MINUTES (default 10) size it.
 */

const RUNS = Number(process.env.AUTOMATION_FAULT_RUNS ?? 10_000);
const SCHEDULE_MINUTES = Number(process.env.AUTOMATION_SCHEDULE_MINUTES ?? 10);
const KILL_EVERY_MS = 10_000;
const WORKERS = 3;
/** Items of each run's loop: each creates a record. */
const ITEMS = 3;
/**
 * Steps each run saves: branch, its arm, the loop, its items, the loop's end, the delay
 * twice, the last call, the end. A worker killed holding jobs leaves them for the live ones
 * to release after two minutes (docs/workflows.md, "Runs"), a few times over.
 */
const STEPS_PER_RUN = 8 + ITEMS;
const STRANDED_MS = 4 * 60_000;
/** Trigger calls in flight at once while the runs are queued. */
const TRIGGER_CONCURRENCY = 16;

const WORKER_ENV = {
  ROLE: 'worker',
  WORKER_POLL_INTERVAL_MS: '100',
  WORKER_CONCURRENCY: '10',
  WORKFLOW_RETRY_SCALE: '0.01',
};

let postgres: ThrowawayPostgres;
let pool: pg.Pool;
let db: Database;
let api: ServerProcess;
let workers: ServerProcess[] = [];
let calls: CallCounter;
let apiKey: string;
let ownerId: string;
let folderId: string;

/** Counts the workflow calls it receives, by path and Idempotency-Key. */
class CallCounter {
  readonly byKey = new Map<string, number>();
  readonly ticks: { scheduledFor: string; at: number }[] = [];
  #server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const key = `${req.url} ${String(req.headers['idempotency-key'])}`;
        this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
        if (req.url === '/tick') {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { scheduledFor: string };
          this.ticks.push({ scheduledFor: body.scheduledFor, at: Date.now() });
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** Calls to `path`: how many keys, and how many calls beyond one per key. */
  count(path: string): { keys: number; repeats: number } {
    let keys = 0;
    let repeats = 0;
    for (const [key, n] of this.byKey) {
      if (!key.startsWith(`${path} `)) continue;
      keys += 1;
      repeats += n - 1;
    }
    return { keys, repeats };
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

const startWorker = () =>
  startServerProcess(postgres.connectionString, { ...WORKER_ENV, WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' });

async function stopAll(list: ServerProcess[], signal: NodeJS.Signals): Promise<void> {
  for (const worker of list)
    if (worker.proc.exitCode === null && worker.proc.signalCode === null) worker.proc.kill(signal);
  await Promise.all(list.map((worker) => worker.exited));
}

// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are checked by the assertions that read them
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: await res.json() };
}

async function saveWorkflow(body: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const saved = await call('POST', '/api/v1/workflows', { rateLimitPerMinute: 1_000_000, ...body });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return { id: saved.body.data.id, url: saved.body.data.trigger.url };
}

async function trigger(url: string, body: unknown): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status === 200) return ((await res.json()) as { runId: string }).runId;
    if (attempt >= 20 || (res.status !== 503 && res.status !== 429))
      throw new Error(`trigger answered ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Run statuses of a workflow, counted; null while the database does not answer. */
async function statuses(workflowId: string): Promise<Record<string, number> | null> {
  try {
    const result = await pool.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from workflow_runs where workflow_id = $1 group by status',
      [workflowId],
    );
    return Object.fromEntries(result.rows.map((row) => [row.status, row.n]));
  } catch {
    return null;
  }
}

beforeAll(
  async () => {
    postgres = await startThrowawayPostgres();
    pool = createPool({ connectionString: postgres.connectionString, max: 2 });
    db = createDatabase(pool);
    const owner = await createWorkspace(db, {
      name: 'Automations',
      owner: { email: 'owner@automations.test', name: 'Owner' },
      rateLimitPerMinute: 1_000_000,
    });
    ownerId = owner.userId;
    apiKey = (await createApiKey(db, { ...owner, name: 'faults' })).secret;
    calls = await new CallCounter().start();
    [api, ...workers] = await Promise.all([
      startServerProcess(postgres.connectionString, { ROLE: 'api', WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' }),
      ...Array.from({ length: WORKERS }, startWorker),
    ]);
    const folders = await call('GET', '/api/v1/folders');
    folderId = folders.body.data[0].id;
  },
  budget({ databaseRestarts: 1, processStarts: 1 + WORKERS }),
);

afterAll(async () => {
  await stopAll([api, ...workers].filter(Boolean), 'SIGKILL');
  await calls?.stop();
  if (pool) await closePool(pool);
  await postgres?.remove();
});

describe('automations under faults', () => {
  it(
    'a deploy in the middle of a DELAY and of an APPROVAL: both runs go on after it',
    async () => {
      const delayed = await saveWorkflow({
        name: 'Delayed',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [
          { type: 'DELAY', for: 'PT15S' },
          { type: 'HTTP_REQUEST', url: `${calls.url}/after-delay` },
        ],
      });
      const approved = await saveWorkflow({
        name: 'Approved',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [
          { type: 'APPROVAL', name: 'ok', assigneeId: ownerId, timeout: 'P1D' },
          {
            type: 'HTTP_REQUEST',
            url: `${calls.url}/after-approval`,
            body: { ok: '{{ steps.ok.output.approved }}' },
          },
        ],
      });
      const delayRun = await trigger(delayed.url, {});
      const approvalRun = await trigger(approved.url, {});
      const allAre = async (status: string) => {
        for (const id of [delayRun, approvalRun]) {
          if ((await call('GET', `/api/v1/runs/${id}`)).body.data.status !== status) return false;
        }
        return true;
      };
      await eventually(() => allAre('WAITING'), 30_000);
      // The deploy: every worker stops (SIGTERM, as a deploy does) and new ones start.
      await stopAll(workers, 'SIGTERM');
      workers = await Promise.all(Array.from({ length: WORKERS }, startWorker));
      const answered = await call('POST', `/api/v1/runs/${approvalRun}/approve`, {
        comment: 'after the deploy',
      });
      expect(answered.status).toBe(200);
      await eventually(() => allAre('SUCCEEDED'), 60_000);
      expect(calls.count('/after-delay')).toEqual({ keys: 1, repeats: 0 });
      expect(calls.count('/after-approval')).toEqual({ keys: 1, repeats: 0 });
    },
    budget({ processStarts: WORKERS, processDrains: WORKERS, waitsMs: 90_000, requests: 20 }),
  );

  it(
    `${RUNS} runs with branches, loops and delays, a worker SIGKILLed every 10 s and PostgreSQL restarted once: every run ends, no step repeated, none lost`,
    async () => {
      const flow = await saveWorkflow({
        name: 'Mixed',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [
          {
            type: 'BRANCH',
            name: 'even',
            if: { left: '{{ trigger.body.even }}', operator: 'EQUALS', right: true },
            then: [{ type: 'CREATE_RECORD', folderId, title: 'run-{{ trigger.body.n }}-even' }],
            else: [{ type: 'HTTP_REQUEST', url: `${calls.url}/odd`, body: { n: '{{ trigger.body.n }}' } }],
          },
          {
            type: 'FOR_EACH',
            items: '{{ trigger.body.items }}',
            actions: [
              { type: 'CREATE_RECORD', folderId, title: 'run-{{ trigger.body.n }}-item-{{ loop.index }}' },
            ],
          },
          { type: 'DELAY', for: 'PT1S' },
          { type: 'HTTP_REQUEST', url: `${calls.url}/done`, body: { n: '{{ trigger.body.n }}' } },
        ],
      });
      // Queued through the trigger URL, as callers do.
      let next = 0;
      await Promise.all(
        Array.from({ length: TRIGGER_CONCURRENCY }, async () => {
          for (let n = next++; n < RUNS; n = next++) {
            await trigger(flow.url, {
              n,
              even: n % 2 === 0,
              items: Array.from({ length: ITEMS }, (_, i) => i),
            });
          }
        }),
      );

      let kills = 0;
      let restarted = false;
      const started = Date.now();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, KILL_EVERY_MS));
        const counts = await statuses(flow.id);
        const ended = (counts?.SUCCEEDED ?? 0) + (counts?.FAILED ?? 0) + (counts?.CANCELLED ?? 0);
        if (counts && ended >= RUNS) break;
        if (!restarted && counts && ended >= RUNS / 3) {
          await postgres.restart({ downMs: 1_000 });
          restarted = true;
          continue;
        }
        // One worker killed mid-work, and a new one started in its place.
        const victim = workers[kills % WORKERS]!;
        victim.proc.kill('SIGKILL');
        await victim.exited;
        workers[kills % WORKERS] = await startWorker();
        kills += 1;
        expect(Date.now() - started, `runs left: ${JSON.stringify(counts)}`).toBeLessThan(
          RUNS * STEPS_PER_RUN * BUDGET.jobMs + STRANDED_MS,
        );
      }
      expect(restarted).toBe(true);
      expect(await statuses(flow.id)).toEqual({ SUCCEEDED: RUNS });
      const records = await pool.query<{ n: number; distinct: number }>(
        `select count(*)::int as n, count(distinct title)::int as distinct from records where title like 'run-%'`,
      );
      const expected = Math.ceil(RUNS / 2) + RUNS * ITEMS;
      expect(records.rows[0]).toEqual({ n: expected, distinct: expected });
      // At least once, by one key per run; sent again only by a worker killed in the middle.
      const done = calls.count('/done');
      const odd = calls.count('/odd');
      expect(done.keys).toBe(RUNS);
      expect(odd.keys).toBe(Math.floor(RUNS / 2));
      expect(done.repeats + odd.repeats).toBeLessThanOrEqual(
        (kills + 1) * Number(WORKER_ENV.WORKER_CONCURRENCY),
      );
      console.info(
        `${RUNS} runs in ${Math.round((Date.now() - started) / 1000)} s after queueing; ${kills} workers killed, PostgreSQL restarted once; HTTP calls sent again: ${done.repeats + odd.repeats}`,
      );
    },
    budget({
      requests: RUNS,
      jobs: RUNS * STEPS_PER_RUN,
      databaseRestarts: 1,
      processStarts: 1 + Math.ceil((RUNS * STEPS_PER_RUN * BUDGET.jobMs) / KILL_EVERY_MS),
      waitsMs: STRANDED_MS,
    }),
  );

  it(
    `three workers and a * * * * * schedule for ${SCHEDULE_MINUTES} minutes: exactly one run per minute`,
    async () => {
      const flow = await saveWorkflow({
        name: 'Every minute',
        trigger: { type: 'SCHEDULE', cron: '* * * * *', timezone: 'Europe/Berlin' },
        actions: [
          {
            type: 'HTTP_REQUEST',
            url: `${calls.url}/tick`,
            body: { scheduledFor: '{{ trigger.body.scheduledFor }}' },
          },
        ],
      });
      const until = Date.now() + SCHEDULE_MINUTES * 60_000;
      while (Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5_000));
      await call('POST', `/api/v1/workflows/${flow.id}/disable`);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      const runs = await pool.query<{ scheduled_for: string; created_at: Date }>(
        `select input->>'scheduledFor' as scheduled_for, created_at from workflow_runs where workflow_id = $1 order by 1`,
        [flow.id],
      );
      const minutes = runs.rows.map((row) => Date.parse(row.scheduled_for));
      expect(new Set(minutes).size).toBe(minutes.length);
      expect(minutes.length).toBeGreaterThanOrEqual(SCHEDULE_MINUTES - 1);
      for (let i = 1; i < minutes.length; i++) expect(minutes[i]! - minutes[i - 1]!).toBe(60_000);
      expect(calls.count('/tick')).toEqual({ keys: minutes.length, repeats: 0 });
      // How late each firing's run was queued: reported, not bounded (it is the machine's load).
      const late = runs.rows.map((row) => row.created_at.getTime() - Date.parse(row.scheduled_for));
      console.info(
        `schedule: ${minutes.length} firings, queued ${Math.max(...late)} ms after their minute at most`,
      );
    },
    budget({ waitsMs: SCHEDULE_MINUTES * 60_000 + 10_000, requests: 2 }),
  );
});
