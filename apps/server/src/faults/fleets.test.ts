import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET, budget } from '../testing/budget.ts';
import { awayFromMinuteBoundary } from '../testing/minute-boundary.ts';
import { eventually } from '../testing/receiver.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { type ServerProcess, startServerProcess } from '../testing/worker-process.ts';

/**
 * API and worker fleets apart (docs/operations.md, "Roles"): three API processes (ROLE=api)
 * and two worker processes (ROLE=worker) on one database. The rate limit stays exact across
 * the API processes; every committed event is delivered, with one recorded success each, also
 * when a worker is SIGKILLed in the middle of its batch; workflow runs complete with no step
 * repeated; and a rolling restart of the API processes under load loses no accepted request.
 * Each test's time limit is the work it does (testing/budget.ts).
 */

const WORKER_ENV = {
  ROLE: 'worker',
  WORKER_POLL_INTERVAL_MS: '50',
  WEBHOOK_RETRY_SCALE: '0.001',
  WORKFLOW_RETRY_SCALE: '0.001',
  WEBHOOK_CONCURRENCY: '16',
  WEBHOOK_BATCH_SIZE: '8',
};

/** Records whose webhook is delivered, one event each, in the delivery test. */
const DELIVERED_RECORDS = 240;
/** How long the delivery test waits for all of them: each delivered at most twice. */
const DELIVERIES_DONE_MS = BUDGET.floorMs + 2 * DELIVERED_RECORDS * BUDGET.jobMs;
/** Workflow runs of three steps each in the workflow test, and how long it waits for them. */
const WORKFLOW_RUNS = 60;
const RUNS_DONE_MS = BUDGET.floorMs + 3 * WORKFLOW_RUNS * BUDGET.jobMs;
/** Requests answered before, between and after the restarts of the rolling restart. */
const LOAD_REQUESTS = 30;

let app: TestApp;
let apis: ServerProcess[] = [];
let workers: ServerProcess[] = [];
let receiver: SlowReceiver;

beforeAll(
  async () => {
    // The test's own process serves nothing to the fleets: it makes workspaces and reads rows.
    app = await startTestApp();
    receiver = await new SlowReceiver().start();
    const connection = app.service.connectionString;
    [apis, workers] = await Promise.all([
      Promise.all([1, 2, 3].map(() => startServerProcess(connection, { ROLE: 'api' }))),
      Promise.all([1, 2].map(() => startServerProcess(connection, WORKER_ENV))),
    ]);
  },
  budget({ processStarts: 5 }),
);

afterAll(async () => {
  const all = [...apis, ...workers];
  for (const server of all) if (server.proc.exitCode === null) server.proc.kill('SIGTERM');
  await Promise.all(all.map((server) => server.exited));
  await receiver?.stop();
  await app?.stop();
});

/** The last warnings each worker process logged, to explain a failure. */
const workerWarnings = () =>
  JSON.stringify(workers.map((worker, i) => ({ worker: i, warnings: worker.warnings.slice(-10) })));

/**
 * Takes webhooks and workflow calls, each answered 200 after a short pause so attempts
 * overlap; after `holdAfter(n)`, webhooks past the n-th are held unanswered until `release()`.
 */
class SlowReceiver {
  /** webhook-id of every delivery received, with when it arrived. */
  readonly hooks: { id: string; at: number }[] = [];
  /** The `n` of every workflow call received. */
  readonly calls: number[] = [];
  readonly held: ServerResponse[] = [];
  #holdAfter = Number.POSITIVE_INFINITY;
  #server: Server | undefined;
  url = '';

  holdAfter(count: number) {
    this.#holdAfter = count;
  }

  /** Answers what is held (a held request of a killed worker has nobody left to read it). */
  release() {
    this.#holdAfter = Number.POSITIVE_INFINITY;
    for (const res of this.held.splice(0)) if (!res.destroyed) res.end('ok');
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === '/hook') {
          this.hooks.push({ id: String(req.headers['webhook-id']), at: Date.now() });
          if (this.hooks.length > this.#holdAfter) {
            this.held.push(res);
            return;
          }
        }
        if (req.url === '/flow')
          this.calls.push(Number((JSON.parse(Buffer.concat(chunks).toString()) as { n: unknown }).n));
        setTimeout(() => res.end('ok'), 40);
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    this.release();
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

const me = (url: string, key: string) =>
  fetch(`${url}/api/v1/me`, { headers: { Authorization: `Bearer ${key}` } }).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });

/** One POST on a connection of its own, as a load balancer forwards it: the status, or the socket error's code. */
function post(url: string, key: string, body: unknown): Promise<number | string> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const req = request(
      `${url}/api/v1/records`,
      {
        method: 'POST',
        agent: false,
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', () => resolve('ERESPONSE'));
      },
    );
    req.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'ERROR'));
    req.end(payload);
  });
}

describe('three API processes and two workers on one database', () => {
  it(
    'grant exactly the workspace limit among 400 parallel requests spread over the API processes',
    async () => {
      await awayFromMinuteBoundary();
      const ws = await app.createWorkspace({ rateLimitPerMinute: 120 });
      const statuses = await Promise.all(
        Array.from({ length: 400 }, (_, i) => me(apis[i % 3]!.url, ws.apiKey)),
      );
      // createWorkspace spent one request of the 120 (it lists folders).
      expect(statuses.filter((s) => s === 200)).toHaveLength(119);
      expect(statuses.filter((s) => s === 429)).toHaveLength(281);
    },
    budget({ requests: 400, minuteBoundary: true }),
  );

  it(
    'delivers every committed event with one recorded success, also when a worker is killed mid-batch',
    async () => {
      const ws = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
      const hook = await app.api(ws.apiKey, 'POST', '/api/v1/webhooks', {
        url: `${receiver.url}/hook`,
        events: ['record.created'],
      });
      expect(hook.status).toBe(201);
      const RECORDS = DELIVERED_RECORDS;
      // After 40 deliveries the receiver stops answering, so both workers fill up with attempts
      // in flight: the kill then lands in the middle of a batch.
      receiver.holdAfter(40);
      const created = await Promise.all(
        Array.from({ length: RECORDS }, (_, i) =>
          fetch(`${apis[i % 3]!.url}/api/v1/records`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${ws.apiKey}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ folderId: ws.folderId, title: `Delivered ${i}` }),
          }).then((res) => res.status),
        ),
      );
      expect(created.every((status) => status === 201)).toBe(true);

      // A worker has at most half its WEBHOOK_CONCURRENCY in flight to one subscription (8):
      // 16 held means both workers are full.
      await eventually(
        async () => receiver.held.length >= Number(WORKER_ENV.WEBHOOK_CONCURRENCY),
        BUDGET.floorMs + 40 * BUDGET.jobMs,
      );
      const victim = workers[0]!;
      victim.proc.kill('SIGKILL');
      await victim.exited;
      const killedAt = Date.now();
      const killedAtDb = (await app.service.pool.query<{ now: Date }>('select now()')).rows[0]!.now;
      receiver.release();
      // The survivor records what it had in flight before the kill.
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The dead worker's claims would run out after their lease (a minute from the claim);
      // they are made to run out now. Claims made after the kill (the survivor's) end later.
      const orphaned = await app.service.pool.query(
        `update deliveries set next_attempt_at = now() - interval '1 second'
        where workspace_id = $1 and status = 'PENDING' and next_attempt_at > now() + interval '20 seconds'
          and next_attempt_at <= $2::timestamptz + interval '60 seconds'
        returning id`,
        [ws.workspaceId, killedAtDb],
      );

      // The kill left claims behind: it happened in the middle of the dead worker's batch.
      expect(orphaned.rowCount).toBeGreaterThan(0);

      const states = await eventually(async () => {
        const result = await app.service.pool.query<{ status: string; n: number }>(
          `select status, count(*)::int as n from deliveries where workspace_id = $1 group by status`,
          [ws.workspaceId],
        );
        const rows = Object.fromEntries(result.rows.map((r) => [r.status, r.n]));
        return rows.SUCCEEDED === RECORDS ? rows : undefined;
      }, DELIVERIES_DONE_MS).catch((error: unknown) => {
        throw new Error(`${String(error)}; the workers logged: ${workerWarnings()}`);
      });
      expect(states).toEqual({ SUCCEEDED: RECORDS });

      // One event, one delivery, one recorded success.
      const successes = await app.service.pool.query<{ n: number }>(
        `select count(*)::int as n from delivery_attempts a join deliveries d on d.id = a.delivery_id
        where d.workspace_id = $1 and a.response_status between 200 and 299 group by a.delivery_id`,
        [ws.workspaceId],
      );
      expect(successes.rows).toHaveLength(RECORDS);
      expect(successes.rows.every((row) => row.n === 1)).toBe(true);
      const events = await app.service.pool.query<{ id: string }>(
        `select id from events where workspace_id = $1 and type = 'record.created'`,
        [ws.workspaceId],
      );
      expect(events.rows).toHaveLength(RECORDS);
      const received = new Map<string, number[]>();
      for (const { id, at } of receiver.hooks) received.set(id, [...(received.get(id) ?? []), at]);
      for (const { id } of events.rows) expect(received.has(id), id).toBe(true);
      // Sent twice exactly what the killed worker had in flight: each received before the kill,
      // and again once its claim ran out.
      const twice = [...received].filter(([, times]) => times.length > 1);
      expect(twice.length).toBe(orphaned.rowCount);
      for (const [, times] of twice) expect(times[0]!).toBeLessThanOrEqual(killedAt);
      expect([...received.values()].every((times) => times.length <= 2)).toBe(true);

      // The fleet goes on with a replacement.
      workers[0] = await startServerProcess(app.service.connectionString, WORKER_ENV);
      console.log(
        JSON.stringify({
          deliveries: RECORDS,
          orphanedClaims: orphaned.rowCount,
          receivedTwice: twice.length,
        }),
      );
    },
    budget({ requests: DELIVERED_RECORDS, waitsMs: 500 + DELIVERIES_DONE_MS, processStarts: 1 }),
  );

  it(
    'completes workflow runs triggered through every API process, with no step repeated',
    async () => {
      const ws = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
      const saved = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
        name: 'Fleet',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [
          { type: 'CREATE_RECORD', folderId: ws.folderId, title: 'Run {{ trigger.body.n }}' },
          { type: 'CREATE_TASK', title: 'Call {{ record.title }}' },
          { type: 'HTTP_REQUEST', url: `${receiver.url}/flow`, body: { n: '[[ trigger.body.n ]]' } },
        ],
      });
      expect(saved.status, saved.text).toBe(201);
      const path = new URL(saved.body.data.trigger.url as string).pathname;
      const RUNS = WORKFLOW_RUNS;
      const accepted = await Promise.all(
        Array.from({ length: RUNS }, async (_, n) => {
          const res = await fetch(`${apis[n % 3]!.url}${path}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ n }),
          });
          expect(res.status).toBe(200);
          return ((await res.json()) as { runId: string }).runId;
        }),
      );
      const runs = await eventually(async () => {
        // Each step's record, in the order the run wrote them (workflow_run_steps).
        const result = await app.service.pool.query<{
          status: string;
          steps: { attempts: number; status: string }[];
        }>(
          `select r.status,
                  coalesce((select json_agg(json_build_object('status', s.status, 'attempts', s.attempts) order by s.seq)
                              from workflow_run_steps s
                             where s.workspace_id = r.workspace_id and s.run_id = r.id), '[]') as steps
             from workflow_runs r where r.id = any($1::text[])`,
          [accepted],
        );
        return result.rows.every((r) => r.status === 'SUCCEEDED' || r.status === 'FAILED') &&
          result.rows.length === RUNS
          ? result.rows
          : undefined;
      }, RUNS_DONE_MS).catch(async (error: unknown) => {
        const where = await app.service.pool.query(
          `select status, next_step, count(*)::int as n from workflow_runs where id = any($1::text[])
            group by status, next_step order by status, next_step`,
          [accepted],
        );
        throw new Error(
          `${String(error)}; runs by status and next step: ${JSON.stringify(where.rows)}; ` +
            `the workers logged: ${workerWarnings()}`,
        );
      });
      expect(runs.filter((r) => r.status === 'SUCCEEDED')).toHaveLength(RUNS);
      for (const run of runs) {
        expect(
          run.steps.map((step) => [step.status, step.attempts]),
          `a step was attempted again; the workers logged: ${workerWarnings()}`,
        ).toEqual([
          ['SUCCEEDED', 1],
          ['SUCCEEDED', 1],
          ['SUCCEEDED', 1],
        ]);
      }
      const records = await app.service.pool.query<{ title: string; n: number }>(
        `select title, count(*)::int as n from records where workspace_id = $1 and title like 'Run %' group by title`,
        [ws.workspaceId],
      );
      expect(records.rows).toHaveLength(RUNS);
      expect(records.rows.every((row) => row.n === 1)).toBe(true);
      const tasks = await app.service.pool.query<{ n: number }>(
        `select count(*)::int as n from tasks where workspace_id = $1`,
        [ws.workspaceId],
      );
      expect(tasks.rows[0]!.n).toBe(RUNS);
      expect([...receiver.calls].sort((a, b) => a - b)).toEqual(Array.from({ length: RUNS }, (_, n) => n));
    },
    budget({ requests: WORKFLOW_RUNS, waitsMs: RUNS_DONE_MS }),
  );

  it(
    'loses no accepted request while each API process is restarted in turn under load',
    async () => {
      const ws = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
      const urls = apis.map((api) => api.url);
      let stop = false;
      let next = 0;
      const outcomes: { title: string; tries: (number | string)[] }[] = [];
      /** Resolves once `count` more requests have their outcome: the load a restart runs under. */
      let onOutcome = () => {};
      const answered = (count: number) => {
        const target = outcomes.length + count;
        return new Promise<void>((resolve) => {
          onOutcome = () => {
            if (outcomes.length >= target) resolve();
          };
        });
      };
      /** A client behind a load balancer: a connection refused is sent to the next process. */
      const loop = async (loopIndex: number) => {
        for (let i = 0; !stop && i < 2_000; i++) {
          const title = `Rolling ${loopIndex}.${i}`;
          const tries: (number | string)[] = [];
          for (let attempt = 0; attempt < 10; attempt++) {
            const url = urls[next++ % urls.length]!;
            const result = await post(url, ws.apiKey, { folderId: ws.folderId, title });
            tries.push(result);
            // An answer ends it; a connection refused or reset is sent to the next process.
            if (typeof result === 'number') break;
          }
          outcomes.push({ title, tries });
          onOutcome();
        }
      };
      const loops = Array.from({ length: 6 }, (_, i) => loop(i));
      const restarts: { drainMs: number; startMs: number }[] = [];
      try {
        for (let i = 0; i < apis.length; i++) {
          await answered(LOAD_REQUESTS);
          const old = apis[i]!;
          const began = Date.now();
          old.proc.kill('SIGTERM');
          await old.exited;
          const drainMs = Date.now() - began;
          expect(old.proc.exitCode).toBe(0);
          const fresh = await startServerProcess(app.service.connectionString, { ROLE: 'api' });
          restarts.push({ drainMs, startMs: Date.now() - began - drainMs });
          apis[i] = fresh;
          urls[i] = fresh.url;
        }
        await answered(LOAD_REQUESTS);
      } finally {
        // The clients stop whatever happened, so none outlives the test.
        stop = true;
        await Promise.all(loops);
      }

      // Every request ended with a 201; tries before it failed on the connection alone.
      const failed = outcomes.filter((o) => o.tries.at(-1) !== 201);
      expect(failed).toEqual([]);
      const retried = outcomes.flatMap((o) => o.tries.slice(0, -1));
      expect(retried.filter((t) => typeof t === 'number')).toEqual([]);
      // Each stored exactly once: a try that failed on its connection was never carried out,
      // and no request that was carried out went unanswered.
      const stored = await app.service.pool.query<{ title: string; n: number }>(
        `select title, count(*)::int as n from records where workspace_id = $1 group by title`,
        [ws.workspaceId],
      );
      expect(stored.rows).toHaveLength(outcomes.length);
      expect(stored.rows.every((row) => row.n === 1)).toBe(true);
      console.log(
        JSON.stringify({
          requests: outcomes.length,
          retriedTries: Object.fromEntries(
            [...new Set(retried)].map((code) => [code, retried.filter((t) => t === code).length]),
          ),
          restarts,
        }),
      );
    },
    // Each of the three restarts waits for LOAD_REQUESTS answers, drains its process and starts
    // a new one, with six clients loading the machine meanwhile; then LOAD_REQUESTS more.
    budget({ requests: 4 * LOAD_REQUESTS, processDrains: 3, processStarts: 3 }),
  );
});
