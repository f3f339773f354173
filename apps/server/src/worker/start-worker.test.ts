import { closePool, createDatabase, createPool } from '@crm/db';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { outboundSettings } from '../outbound.ts';
import { eventually } from '../testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';
import { startWorker, type Worker } from './start-worker.ts';

let app: TestApp;
let ws: TestWorkspace;
let pool: pg.Pool | undefined;
let worker: Worker | undefined;

beforeAll(async () => {
  // The app serves the API only; the worker under test runs here, on a pool of the test's own.
  app = await startTestApp();
  // The test reads the run until it ends: a limit that this polling never reaches.
  ws = await app.createWorkspace({ rateLimitPerMinute: 100_000 });
});
afterAll(async () => {
  await worker?.stop();
  if (pool) await closePool(pool);
  await app?.stop();
});

/**
 * Makes the connection that first sends `statement` die just before it does, the way a
 * database restart ends it: its backend is terminated from another session.
 */
function terminateConnectionOnFirst(target: pg.Pool, statement: RegExp) {
  let done = false;
  const terminated: string[] = [];
  target.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as { query: typeof query }).query = async (...args: unknown[]) => {
      const first = args[0];
      const text = typeof first === 'string' ? first : (first as { text?: string })?.text;
      if (!done && text && statement.test(text)) {
        done = true;
        const { processID } = client as unknown as { processID: number };
        await app.service.pool.query('select pg_terminate_backend($1)', [processID]);
        terminated.push(text);
        // The terminated backend's goodbye arrives before the statement goes out.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return query(...args);
    };
  });
  return terminated;
}

describe('the job runner', () => {
  it('runs jobs after the lookup of its task names failed on a dropped connection', async () => {
    const saved = await app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
      name: 'Intake',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CREATE_RECORD', folderId: ws.folderId, title: '{{ trigger.body.name }}' }],
    });
    expect(saved.status).toBe(201);
    const accepted = await app.api(null, 'POST', new URL(saved.body.data.trigger.url).pathname, {
      name: 'After the restart',
    });
    expect(accepted.status).toBe(200);
    const runId = accepted.body.runId as string;

    const { connectionString } = app.service;
    pool = createPool({ connectionString, max: 4 });
    // The runner names its tasks once, on its first look for jobs: that lookup meets the
    // dropped connection.
    const terminated = terminateConnectionOnFirst(pool, /_private_tasks/);
    const env = readEnv({ DATABASE_URL: connectionString, WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' });
    const outbound = outboundSettings(env);
    worker = await startWorker({
      pool,
      db: createDatabase(pool),
      connectionString,
      logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
      outbound,
      workflows: { http: outbound, retry: { scale: 0.01, jitter: 0 } },
      pollIntervalMs: 200,
    });

    const run = await eventually(async () => {
      const res = await app.api(ws.apiKey, 'GET', `/api/v1/runs/${runId}`);
      expect(res.status).toBe(200);
      return res.body.data.status === 'SUCCEEDED' ? res.body.data : undefined;
    }, 15_000);
    expect(terminated).toHaveLength(1);
    expect(run.steps.map((s: { status: string }) => s.status)).toEqual(['SUCCEEDED']);
    const records = await app.api(ws.apiKey, 'GET', '/api/v1/records?search=After%20the%20restart');
    expect(records.body.data).toHaveLength(1);
  }, 40_000);
});
