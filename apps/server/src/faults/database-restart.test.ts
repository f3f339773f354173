import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createApiKey, createWorkspace } from '@crm/domain';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET, budget } from '../testing/budget.ts';
import { eventually, Receiver } from '../testing/receiver.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../testing/throwaway-postgres.ts';
import { type ServerProcess, startServerProcess } from '../testing/worker-process.ts';

/**
 * PostgreSQL restarted under writes (docs/operations.md, "Database restarts and outages"):
 * service processes of the three roles — API only (ROLE=api), a worker that serves no
 * API traffic, and API and worker in one — run against a cluster of the test's own, which is
 * restarted with a fast shutdown several times (sometimes at once, sometimes after a pause)
 * while loops POST records (some with an Idempotency-Key) and trigger a workflow.
 *
 * Each process must survive; every answer must be a success or a 503 with Retry-After (never
 * a 500 or a dropped connection); every record answered 201 must be stored; while the server
 * is down, /readyz, sign-in, the trigger URL, tRPC and REST answer 503; afterwards each worker
 * process still sends webhook deliveries and runs workflows. Each test's time limit is the work
 * it does (testing/budget.ts).
 */

/** Down time of each restart: 0 is a restart at once (`pg_ctl restart -m fast`). */
const RESTARTS_DOWN_MS = [0, 1_200, 0, 1_500];
/**
 * Load before the first restart, between restarts and after the last one: this many more
 * successful answers (201 or 200), so each restart meets processes that recovered from the
 * previous one and are writing.
 */
const SUCCESSES_BETWEEN_RESTARTS = 24;
const LOOPS_PER_API = 3;
/** Bounds each loop whatever the timing. */
const MAX_REQUESTS_PER_LOOP = 400;
const REQUEST_TIMEOUT_MS = 20_000;
/** Set CRM_FAULT_LOG_DIR to keep each process's whole log there, at debug level. */
const LOG_DIR = process.env.CRM_FAULT_LOG_DIR;
/** Log messages counted in the summary: how the processes coped. */
const NOTED = [
  'the job runner stopped; starting a new one',
  'the job runner started again',
  'the stopped job runner did not finish shutting down; it is left behind',
  'a stopped job runner could not give back its fetched jobs; they are released later',
  'the webhook delivery listener lost its connection',
];

interface Answer {
  target: string;
  kind: 'record' | 'trigger';
  status: number | 'no answer';
  retryAfter: string | null;
  code?: string;
  recordId?: string;
  error?: string;
}

interface Running {
  name: 'api' | 'worker' | 'all-in-one';
  process: ServerProcess;
  /** Its log lines of level warn and above, and those about the job runner. */
  logged: { level: string; msg: string; code?: string }[];
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

let postgres: ThrowawayPostgres;
let pool: pg.Pool;
let db: Database;
let receiver: Receiver;
let apiKey: string;
let folderId: string;
let workflowId: string;
const running: Running[] = [];
const answers: Answer[] = [];
const whileDown: { target: string; what: string; status: number; retryAfter: string | null }[] = [];
const restarts: { downMs: number }[] = [];
/** Called on every answer of the write loops. */
let onAnswer = () => {};
let loadStats = { requests: 0, created: 0, triggered: 0, unavailable: 0 };

const byName = (name: Running['name']) => running.find((r) => r.name === name)!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startProcess(name: Running['name']): Promise<Running> {
  const child = await startServerProcess(postgres.connectionString, {
    ROLE: name === 'all-in-one' ? 'all' : name,
    WORKER_POLL_INTERVAL_MS: '200',
    WEBHOOK_RETRY_SCALE: '0.001',
    WORKFLOW_RETRY_SCALE: '0.001',
    WEBHOOK_TIMEOUT_MS: '5000',
    ...(LOG_DIR ? { LOG_LEVEL: 'debug' } : {}),
  });
  if (LOG_DIR) child.proc.stdout!.pipe(createWriteStream(join(LOG_DIR, `${name}.log`)));
  const entry: Running = { name, process: child, logged: [] };
  let pending = '';
  child.proc.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!/"level":"(error|fatal|warn)"|job runner/.test(line)) continue;
      try {
        const parsed = JSON.parse(line) as { level: string; msg: string; code?: string };
        entry.logged.push({
          level: parsed.level,
          msg: parsed.msg,
          ...(parsed.code ? { code: parsed.code } : {}),
        });
      } catch {
        entry.logged.push({ level: 'unparsed', msg: line.slice(0, 200) });
      }
    }
  });
  child.proc.once('exit', (code, signal) => {
    entry.exit = { code, signal };
  });
  return entry;
}

async function call(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

const bearer = () => ({ Authorization: `Bearer ${apiKey}` });

beforeAll(
  async () => {
    postgres = await startThrowawayPostgres();
    pool = createPool({ connectionString: postgres.connectionString, max: 2 });
    db = createDatabase(pool);
    const owner = await createWorkspace(db, {
      name: 'Restarts',
      owner: { email: 'owner@restarts.test', name: 'Owner' },
      rateLimitPerMinute: 1_000_000,
    });
    apiKey = (await createApiKey(db, { ...owner, name: 'load' })).secret;
    receiver = await new Receiver().start();
    running.push(
      ...(await Promise.all([startProcess('api'), startProcess('worker'), startProcess('all-in-one')])),
    );
    const api = byName('api').process.url;
    const folders = await call(`${api}/api/v1/folders`, 'GET', undefined, bearer());
    folderId = (folders.body as { data: { id: string }[] }).data[0]!.id;
    const webhook = await call(
      `${api}/api/v1/webhooks`,
      'POST',
      { url: `${receiver.url}/webhook`, events: ['record.created'] },
      bearer(),
    );
    expect(webhook.status).toBe(201);
    const workflow = await call(
      `${api}/api/v1/workflows`,
      'POST',
      {
        name: 'Restart probe',
        trigger: { type: 'INCOMING_WEBHOOK' },
        rateLimitPerMinute: 100_000,
        actions: [
          { type: 'HTTP_REQUEST', url: `${receiver.url}/workflow`, body: { tag: '{{ trigger.body.tag }}' } },
        ],
      },
      bearer(),
    );
    expect(workflow.status).toBe(201);
    workflowId = (workflow.body as { data: { id: string } }).data.id;
  },
  budget({ databaseRestarts: 1, processStarts: 3, requests: 3 }),
);

afterAll(async () => {
  for (const entry of running) {
    if (entry.process.proc.exitCode === null && entry.process.proc.signalCode === null) {
      entry.process.proc.kill('SIGCONT');
      entry.process.proc.kill('SIGKILL');
      await entry.process.exited;
    }
  }
  await receiver?.stop();
  if (pool) await closePool(pool);
  await postgres?.remove();
});

/** Errors logged, requests answered 500, and how often each noted message was logged. */
function summarise(lines: Running['logged']): Record<string, number> {
  const counts: Record<string, number> = {
    errors: lines.filter((l) => l.level === 'error' || l.level === 'fatal').length,
    internal: lines.filter((l) => l.code === 'INTERNAL').length,
  };
  for (const line of lines) {
    if (NOTED.includes(line.msg)) counts[line.msg] = (counts[line.msg] ?? 0) + 1;
  }
  return counts;
}

/** POSTs records (or trigger calls) one after another until told to stop. */
async function writeLoop(target: Running, kind: Answer['kind'], loop: number, stop: () => boolean) {
  const base = target.process.url;
  for (let n = 0; n < MAX_REQUESTS_PER_LOOP && !stop(); n++) {
    const tag = `${target.name}-${kind}-${loop}-${n}`;
    let answer: Answer;
    try {
      const res =
        kind === 'record'
          ? await call(
              `${base}/api/v1/records`,
              'POST',
              { folderId, title: tag },
              {
                ...bearer(),
                // One loop of each process goes through the Idempotency-Key path.
                ...(loop === 0 ? { 'Idempotency-Key': `key-${tag}` } : {}),
              },
            )
          : await call(`${base}/api/webhooks/trigger/${workflowId}`, 'POST', { tag });
      const body = res.body as { data?: { id?: string }; error?: { code?: string } } | undefined;
      answer = {
        target: target.name,
        kind,
        status: res.status,
        retryAfter: res.headers.get('Retry-After'),
        ...(body?.error?.code ? { code: body.error.code } : {}),
        ...(res.status === 201 && body?.data?.id ? { recordId: body.data.id } : {}),
      };
    } catch (error) {
      answer = { target: target.name, kind, status: 'no answer', retryAfter: null, error: String(error) };
    }
    answers.push(answer);
    onAnswer();
    // The service asks for 5 s; a test cannot wait that long, but it need not hammer either.
    if (answer.status !== 201 && answer.status !== 200) await sleep(100);
  }
}

const succeeded = () => answers.filter((a) => a.status === 201 || a.status === 200).length;

/** Resolves once the write loops have `count` more successful answers; fails past `limitMs`. */
function moreSuccesses(count: number, limitMs: number): Promise<void> {
  const target = succeeded() + count;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      onAnswer = () => {};
      const last = answers.slice(-5);
      reject(
        new Error(
          `not ${count} more successes within ${limitMs} ms; the last answers: ${JSON.stringify(last)}`,
        ),
      );
    }, limitMs);
    onAnswer = () => {
      if (succeeded() < target) return;
      clearTimeout(timer);
      onAnswer = () => {};
      resolve();
    };
    onAnswer();
  });
}

/** Requests of every kind, sent while the server is down: each must be a 503 with Retry-After. */
async function probeWhileDown() {
  for (const target of [byName('api'), byName('all-in-one')]) {
    const base = target.process.url;
    const probes: [string, () => Promise<{ status: number; headers: Headers }>][] = [
      ['GET /readyz', () => call(`${base}/readyz`, 'GET')],
      [
        'POST /api/v1/records',
        () => call(`${base}/api/v1/records`, 'POST', { folderId, title: 'x' }, bearer()),
      ],
      ['GET /api/v1/records', () => call(`${base}/api/v1/records?limit=1`, 'GET', undefined, bearer())],
      [
        'GET /trpc/records.list',
        () => call(`${base}/trpc/records.list?input=%7B%7D`, 'GET', undefined, bearer()),
      ],
      ['POST trigger URL', () => call(`${base}/api/webhooks/trigger/${workflowId}`, 'POST', { tag: 'down' })],
      [
        'POST /auth/sign-in',
        () =>
          call(`${base}/auth/sign-in`, 'POST', {
            email: 'owner@restarts.test',
            password: 'not the password',
          }),
      ],
    ];
    for (const [what, probe] of probes) {
      const res = await probe();
      whileDown.push({
        target: target.name,
        what,
        status: res.status,
        retryAfter: res.headers.get('Retry-After'),
      });
    }
  }
}

/**
 * Waits up to 20 s for `check`; past that, fails with what `explain` finds, so that a run that
 * fails tells why.
 */
async function eventuallyOrExplain(what: string, check: () => boolean, explain: () => Promise<unknown>) {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) {
      const state = await explain().catch((error: unknown) => ({ explainFailed: String(error) }));
      throw new Error(`${what} did not arrive within 20 s: ${JSON.stringify(state, null, 1)}`);
    }
    await sleep(50);
  }
}

/**
 * Where the work stands, read from the database and from the working process: the deliveries
 * and runs naming `mention`, every delivery and run by status, the subscription's health,
 * the sessions not idle (waits and blockers), the process's pool and webhook metrics, and its
 * last warnings.
 */
async function whyNotSent(name: Running['name'], mention: string) {
  const query = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows;
  const entry = byName(name);
  const metrics = await fetch(`${entry.process.opsUrl ?? entry.process.url}/metrics`)
    .then((res) => res.text())
    .then((text) =>
      text
        .split('\n')
        .filter((line) => /^crm_(db_pool|webhook|jobs)/.test(line) && !line.includes('_bucket')),
    )
    .catch((error: unknown) => [`metrics unavailable: ${String(error)}`]);
  return {
    mentioned: await query(
      `select d.id, d.status, d.attempt_count, round(extract(epoch from d.next_attempt_at - now())::numeric, 1) as due_in_s,
         (select json_agg(json_build_object('status', a.response_status, 'error', a.error, 'ms', a.duration_ms)
            order by a.attempt) from delivery_attempts a where a.delivery_id = d.id) as attempts
       from deliveries d join events e on e.workspace_id = d.workspace_id and e.id = d.event_id
       where e.payload::text like '%' || $1 || '%'`,
      [mention],
    ),
    runs: await query(
      `select r.id, r.status, r.next_step, r.error,
         (select json_agg(json_build_object('path', s.path, 'status', s.status, 'attempts', s.attempts, 'error', s.error)
            order by s.seq) from workflow_run_steps s where s.workspace_id = r.workspace_id and s.run_id = r.id) as steps
       from workflow_runs r where r.input::text like '%' || $1 || '%'`,
      [mention],
    ),
    deliveries: await query(
      `select status, count(*)::int as n,
         round(extract(epoch from min(next_attempt_at) - now())::numeric, 1) as first_due_in_s,
         round(extract(epoch from max(next_attempt_at) - now())::numeric, 1) as last_due_in_s
       from deliveries group by status`,
    ),
    runsByStatus: await query(`select status, count(*)::int as n from workflow_runs group by status`),
    webhooks: await query(`select id, enabled, failing_since, last_success_at from webhooks`),
    sessions: await query(
      `select pid, application_name, state, wait_event_type, wait_event, pg_blocking_pids(pid) as blocked_by,
         round(extract(epoch from now() - xact_start)::numeric, 1) as xact_s, left(query, 160) as query
       from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
    ),
    metrics,
    logged: entry.logged.slice(-15),
  };
}

describe('PostgreSQL restarted under writes', () => {
  it(
    'answers every request with a success or a 503 with Retry-After, never a 500',
    async () => {
      let stopped = false;
      const loops: Promise<void>[] = [];
      for (const name of ['api', 'all-in-one'] as const) {
        for (let loop = 0; loop < LOOPS_PER_API; loop++) {
          loops.push(writeLoop(byName(name), 'record', loop, () => stopped));
        }
        loops.push(writeLoop(byName(name), 'trigger', 0, () => stopped));
      }
      // The processes reconnect and answer again within a restart's share of the budget.
      const recovery = BUDGET.databaseRestartMs + SUCCESSES_BETWEEN_RESTARTS * BUDGET.requestMs;
      try {
        for (const [round, downMs] of RESTARTS_DOWN_MS.entries()) {
          await moreSuccesses(SUCCESSES_BETWEEN_RESTARTS, recovery);
          // The first restart with a pause also probes every kind of request while down.
          const probe = downMs > 0 && whileDown.length === 0;
          const restart = await postgres.restart({ downMs, ...(probe ? { whileDown: probeWhileDown } : {}) });
          restarts.push(restart);
          expect(restart.downMs, `restart ${round}`).toBeGreaterThanOrEqual(downMs);
        }
        await moreSuccesses(SUCCESSES_BETWEEN_RESTARTS, recovery);
      } finally {
        stopped = true;
        await Promise.all(loops);
      }

      loadStats = {
        requests: answers.length,
        created: answers.filter((a) => a.status === 201).length,
        triggered: answers.filter((a) => a.kind === 'trigger' && a.status === 200).length,
        unavailable: answers.filter((a) => a.status === 503).length,
      };
      const unexpected = answers.filter(
        (a) =>
          !(
            (a.kind === 'record' && a.status === 201) ||
            (a.kind === 'trigger' && a.status === 200) ||
            (a.status === 503 && a.code === 'UNAVAILABLE' && Number(a.retryAfter) >= 1)
          ),
      );
      console.info(
        JSON.stringify({
          restartsDownMs: restarts.map((r) => r.downMs),
          ...loadStats,
          byTarget: Object.fromEntries(
            (['api', 'all-in-one'] as const).map((target) => {
              const mine = answers.filter((a) => a.target === target);
              return [
                target,
                {
                  requests: mine.length,
                  succeeded: mine.filter((a) => a.status === 201 || a.status === 200).length,
                  unavailable: mine.filter((a) => a.status === 503).length,
                },
              ];
            }),
          ),
          unexpected: unexpected.slice(0, 10),
          logged: Object.fromEntries(running.map((r) => [r.name, summarise(r.logged)])),
        }),
      );
      expect(unexpected).toEqual([]);
      // The run did exercise both: writes went through, and some met the server away.
      expect(loadStats.created).toBeGreaterThan(0);
      expect(loadStats.triggered).toBeGreaterThan(0);
      expect(loadStats.unavailable).toBeGreaterThan(0);
      // No process logged a request it answered with a 500.
      for (const entry of running) {
        expect(
          entry.logged.filter((e) => e.code === 'INTERNAL'),
          entry.name,
        ).toEqual([]);
      }
    },
    budget({
      databaseRestarts: RESTARTS_DOWN_MS.length,
      waitsMs: RESTARTS_DOWN_MS.reduce((a, b) => a + b, 0),
      requests: (RESTARTS_DOWN_MS.length + 1) * SUCCESSES_BETWEEN_RESTARTS + 12,
    }),
  );

  it('answered 503 with Retry-After on every surface while the server was down', () => {
    expect(whileDown.length).toBeGreaterThan(0);
    for (const probe of whileDown) {
      expect({ ...probe, retryAfter: Number(probe.retryAfter) >= 1 }).toEqual({
        ...probe,
        status: 503,
        retryAfter: true,
      });
    }
  });

  it('stored every record it answered 201 for', async () => {
    const ids = answers.flatMap((a) => (a.recordId ? [a.recordId] : []));
    expect(ids.length).toBe(loadStats.created);
    const stored = await pool.query<{ id: string }>('select id from records where id = any($1::text[])', [
      ids,
    ]);
    expect(stored.rowCount).toBe(ids.length);
  });

  it(
    'kept every process alive, healthy, ready and writing',
    async () => {
      for (const entry of running) {
        expect(entry.exit, `${entry.name} exited`).toBeUndefined();
        const base = entry.process.url;
        expect((await call(`${base}/healthz`, 'GET')).status, entry.name).toBe(200);
        const ready = await eventually(
          async () => (await call(`${base}/readyz`, 'GET')).status === 200,
          10_000,
        );
        expect(ready).toBe(true);
        // A worker serves no API: its URL is that of its health and metrics listener.
        if (entry.name === 'worker') continue;
        const created = await call(
          `${base}/api/v1/records`,
          'POST',
          { folderId, title: `after ${entry.name}` },
          bearer(),
        );
        expect(created.status, entry.name).toBe(201);
      }
    },
    budget({ requests: 9, waitsMs: 3 * 10_000 }),
  );

  // Four waits of up to 20 s each, so that a wait that fails explains itself.
  it(
    'still sends webhook deliveries and runs workflows from each worker process',
    async () => {
      const api = byName('api').process.url;
      for (const name of ['worker', 'all-in-one'] as const) {
        // The other worker process is paused, so this one alone can take the work.
        const other = byName(name === 'worker' ? 'all-in-one' : 'worker').process.proc;
        other.kill('SIGSTOP');
        try {
          const created = await call(
            `${api}/api/v1/records`,
            'POST',
            { folderId, title: `delivered by ${name}` },
            bearer(),
          );
          expect(created.status).toBe(201);
          const recordId = (created.body as { data: { id: string } }).data.id;
          const tag = `run by ${name}`;
          expect((await call(`${api}/api/webhooks/trigger/${workflowId}`, 'POST', { tag })).status).toBe(200);
          await eventuallyOrExplain(
            `the webhook of ${recordId}, sent by ${name}`,
            () =>
              receiver.requests.some(
                (r) =>
                  r.path === '/webhook' &&
                  (JSON.parse(r.body.toString()) as { recordId?: string }).recordId === recordId,
              ),
            () => whyNotSent(name, recordId),
          );
          await eventuallyOrExplain(
            `the workflow call tagged "${tag}"`,
            () =>
              receiver.requests.some(
                (r) =>
                  r.path === '/workflow' && (JSON.parse(r.body.toString()) as { tag?: string }).tag === tag,
              ),
            () => whyNotSent(name, tag),
          );
        } finally {
          other.kill('SIGCONT');
        }
      }
      const delivered = new Set(
        receiver.requests
          .filter((r) => r.path === '/webhook')
          .map((r) => (JSON.parse(r.body.toString()) as { recordId?: string }).recordId),
      );
      const createdIds = answers.flatMap((a) => (a.recordId ? [a.recordId] : []));
      console.info(
        JSON.stringify({
          recordsCreatedUnderLoad: createdIds.length,
          theirWebhooksDeliveredSoFar: createdIds.filter((id) => delivered.has(id)).length,
          workflowCallsReceived: receiver.requests.filter((r) => r.path === '/workflow').length,
          triggersAccepted: loadStats.triggered,
        }),
      );
    },
    budget({ requests: 4, waitsMs: 4 * 20_000 }),
  );

  it(
    'shuts every process down cleanly afterwards',
    async () => {
      for (const entry of running) entry.process.proc.kill('SIGTERM');
      await Promise.all(running.map((entry) => entry.process.exited));
      for (const entry of running) expect(entry.exit, entry.name).toEqual({ code: 0, signal: null });
    },
    budget({ processDrains: 1 }),
  );
});
