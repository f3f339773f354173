import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { createApiKey, createWorkspace } from '@crm/domain';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../testing/budget.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../testing/throwaway-postgres.ts';
import { type ServerProcess, startServerProcess } from '../testing/worker-process.ts';

/**
 * An import job under faults (docs/jobs.md, "Exactly once"): JOB_FAULT_ROWS rows (default
 * 200,000) imported while the worker process running the job is SIGKILLed every 15 s (and a
 * new one started, writing one chunk at a time or two in turn) and PostgreSQL is restarted
 * once. The job ends SUCCEEDED; every row is
 * applied once (checked by email: none twice, none missing), the results have one line per
 * row, and the event feed one `record.created` per record.
 */

const ROWS = Number(process.env.JOB_FAULT_ROWS ?? 200_000);
const KILL_EVERY_MS = 15_000;
/**
 * The test waits for the job, however slow the machine, and fails only when no row is applied
 * for this long: stuck, not slow (a killed runner's lease of 20 s runs out, the sweep queues the
 * job again within seconds, and the new worker may be killed once more before it gets far).
 */
const STALL_MS = 3 * KILL_EVERY_MS + 60_000;
/** Rows a second that only size the test's hard bound (its timeout), far below what two cores do. */
const ROWS_PER_SECOND_FLOOR = 50;

let postgres: ThrowawayPostgres;
let pool: pg.Pool;
let db: Database;
let api: ServerProcess;
let worker: ServerProcess | undefined;
let apiKey: string;
let workspaceId: string;

let started = 0;
/**
 * A worker process; every other one writes two chunks at once (IMPORT_CHUNKS_IN_FLIGHT), so
 * each way of running an import is cut off, and a job goes on in the other way after a kill.
 */
const startWorker = () =>
  startServerProcess(postgres.connectionString, {
    ROLE: 'worker',
    WORKER_POLL_INTERVAL_MS: '100',
    IMPORT_CHUNKS_IN_FLIGHT: String((started++ % 2) + 1),
  });

async function kill(process: ServerProcess | undefined): Promise<void> {
  if (!process) return;
  if (process.proc.exitCode === null && process.proc.signalCode === null) process.proc.kill('SIGKILL');
  await process.exited;
}

// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are checked by the assertions that read them
type Json = any;

async function call(
  method: string,
  path: string,
  body?: unknown,
  type = 'application/json',
): Promise<{ status: number; body: Json; text: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${apiKey}`,
          ...(body === undefined ? {} : { 'Content-Type': type }),
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        signal: AbortSignal.timeout(120_000),
      });
      const text = await res.text();
      if (res.status === 503 && attempt < 60) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed, text };
    } catch (error) {
      if (attempt >= 60) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

beforeAll(
  async () => {
    postgres = await startThrowawayPostgres();
    pool = createPool({ connectionString: postgres.connectionString, max: 2 });
    db = createDatabase(pool);
    const owner = await createWorkspace(db, {
      name: 'Jobs',
      owner: { email: 'owner@jobs.test', name: 'Owner' },
      rateLimitPerMinute: 1_000_000,
    });
    workspaceId = owner.workspaceId;
    apiKey = (await createApiKey(db, { ...owner, name: 'faults' })).secret;
    [api, worker] = await Promise.all([
      startServerProcess(postgres.connectionString, { ROLE: 'api' }),
      startWorker(),
    ]);
  },
  budget({ databaseRestarts: 1, processStarts: 2 }),
);

afterAll(async () => {
  await Promise.all([kill(api), kill(worker)]);
  if (pool) await closePool(pool);
  await postgres?.remove();
});

describe('an import job under faults', () => {
  const workMs = (ROWS / ROWS_PER_SECOND_FLOOR) * 1000;
  it(
    `${ROWS} rows, the worker SIGKILLed every 15 s and PostgreSQL restarted once: SUCCEEDED, every row applied once`,
    async () => {
      const folders = await call('GET', '/api/v1/folders');
      const folderId = folders.body.data[0].id;
      const created = await call('POST', '/api/v1/jobs/imports', {
        folderId,
        format: 'csv',
        mapping: { name: 'title', email: 'email', company: 'data.company' },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.body.data.id as string;
      const lines = ['name,email,company'];
      for (let i = 1; i <= ROWS; i++) lines.push(`Person ${i},p${i}@faults.test,"Company ${i % 97}"`);
      const put = await call('PUT', `/api/v1/jobs/${id}/file`, lines.join('\n'), 'text/csv');
      expect(put.status, put.text).toBe(202);

      let restarted = false;
      let kills = 0;
      let lastKill = Date.now();
      let status = 'QUEUED';
      let progressed = { rows: 0, at: Date.now() };
      for (;;) {
        const job = await call('GET', `/api/v1/jobs/${id}`);
        status = job.body?.data?.status ?? status;
        if (!['QUEUED', 'RUNNING'].includes(status)) break;
        const rowsRead = job.body?.data?.progress?.rowsRead ?? 0;
        if (rowsRead > progressed.rows) progressed = { rows: rowsRead, at: Date.now() };
        else if (Date.now() - progressed.at > STALL_MS) {
          throw new Error(`no row applied for ${STALL_MS / 1000} s: ${rowsRead} of ${ROWS} read, ${status}`);
        }
        if (!restarted && rowsRead >= ROWS / 2) {
          await postgres.restart({ downMs: 1_000 });
          restarted = true;
        }
        if (Date.now() - lastKill >= KILL_EVERY_MS) {
          await kill(worker);
          kills++;
          worker = await startWorker();
          lastKill = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(status).toBe('SUCCEEDED');
      expect(kills).toBeGreaterThan(0);
      expect(restarted).toBe(true);

      const emails = await pool.query<{ n: number; distinct: number }>(
        'select count(*)::int as n, count(distinct email)::int as distinct from records where workspace_id = $1',
        [workspaceId],
      );
      expect(emails.rows[0]).toEqual({ n: ROWS, distinct: ROWS });
      const job = await call('GET', `/api/v1/jobs/${id}`);
      expect(job.body.data.progress).toMatchObject({
        rowsRead: ROWS,
        created: ROWS,
        refused: 0,
        total: ROWS,
      });
      const results = await fetch(`${api.url}/api/v1/jobs/${id}/results`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      const text = await results.text();
      const rows = text
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { row: number }).row);
      expect(rows).toHaveLength(ROWS);
      expect(rows.every((row, i) => row === i + 1)).toBe(true);
      const events = await pool.query<{ n: number; records: number }>(
        `select count(*)::int as n, count(distinct payload->>'recordId')::int as records from events
          where workspace_id = $1 and type = 'record.created'`,
        [workspaceId],
      );
      expect(events.rows[0]).toEqual({ n: ROWS, records: ROWS });
      process.stdout.write(`jobs fault test: ${ROWS} rows, ${kills} kills, PostgreSQL restarted once\n`);
    },
    budget({
      databaseRestarts: 1,
      processStarts: 2 + workMs / KILL_EVERY_MS,
      waitsMs: workMs,
      requests: 10_000,
    }),
  );
});
