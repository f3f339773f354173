import { rm, writeFile } from 'node:fs/promises';
import type pg from 'pg';
import type { Child } from '../processes.ts';
import { round, sleep } from '../time.ts';
import { type Api, createBurst } from './load.ts';
import { type CpuShare, cpuMeter } from './observe.ts';
import { type Receiver, wallNow } from './receiver.ts';
import { countStatements, type SqlPerRecord } from './sql-trace.ts';

export interface CapacityResult {
  records: number;
  subscriptions: number;
  /** Pending deliveries released at once: records × subscriptions. */
  backlog: number;
  /** How fast the API committed the backlog's records (no worker running). */
  writesPerSecond: number;
  received: number;
  /** Received ÷ (release → last receipt): the headline delivery capacity. */
  deliveriesPerSecond: number;
  /** Received ÷ (first receipt → last receipt). */
  deliveriesPerSecondFirstToLast: number;
  /** Release → last receipt. */
  seconds: number;
  /** Release → first receipt, ms. */
  firstReceiptMs: number;
  /** Attempts recorded in the workspace, by response status. */
  attempts: Record<string, number>;
  cpu: CpuShare;
  /** CPU milliseconds per delivery, from /proc over the drain. */
  cpuMsPerDelivery: { service: number | null; postgres: number | null };
  /** What the worker process sent PostgreSQL per delivery during the drain. */
  sqlPerDelivery: SqlPerRecord;
  /** Every (subscription, committed event) pair received exactly once. */
  exactlyOnce: {
    expected: number;
    distinct: number;
    duplicates: number;
    missing: number;
    unknown: number;
    pass: boolean;
  };
  complete: boolean;
}

/**
 * Delivery capacity: `records` record.created events are committed through the API while
 * no worker runs, each wanted by `subscriptions` subscriptions of one workspace (distinct
 * paths of the receiver), so records × subscriptions deliveries wait. They are parked (due
 * in an hour) while a worker process starts and settles, then released at once (due now,
 * and the workers notified) and drained: every delivery signed, sent over HTTP, answered,
 * and its attempt recorded, exactly as in production.
 */
export async function measureCapacity(
  options: {
    api: Api;
    workspaceId: string;
    records: number;
    subscriptions: number;
    connections: number;
    waitMs: number;
    /** Starts the API without a worker. */
    startApi: () => Promise<Child>;
    /** Starts a worker process (and API) with its SQL traced to `traceFile`; resolves when ready. */
    startWorker: (traceFile: string) => Promise<Child>;
    traceFile: string;
  },
  receiver: Receiver,
  pool: pg.Pool,
  log: (line: string) => void,
): Promise<CapacityResult> {
  const apiOnly = await options.startApi();
  options.api.url = apiOnly.url;
  const burst = await createBurst(options.api, options.records, options.connections, 'backlog');
  await apiOnly.stop();
  if (burst.non2xx > 0 || burst.errors > 0)
    throw new Error(`backlog: ${burst.non2xx} non-2xx, ${burst.errors} errors/timeouts`);
  const writeSeconds = (burst.lastCommitAt - burst.sentAt) / 1000;
  const parked = await pool.query(
    `update deliveries set next_attempt_at = now() + interval '1 hour' where workspace_id = $1 and status = 'PENDING'`,
    [options.workspaceId],
  );
  const backlog = parked.rowCount ?? 0;
  log(
    `  ${burst.created} records in ${writeSeconds.toFixed(1)} s with no worker running: ${backlog} deliveries parked`,
  );
  await writeFile(options.traceFile, '');
  const worker = await options.startWorker(options.traceFile);
  await sleep(1_000);
  await writeFile(options.traceFile, '');
  const offset = receiver.arrivals.length;
  const cpu = await cpuMeter(pool, worker.process.pid);
  const releasedAt = wallNow();
  await pool.query(
    `with released as (
       update deliveries set next_attempt_at = now() where workspace_id = $1 and status = 'PENDING' returning 1
     ) select count(*), pg_notify('crm_deliveries', '') from released`,
    [options.workspaceId],
  );
  const complete = await receiver.waitFor(offset + backlog, options.waitMs);
  const cpuShare = await cpu();
  // The last attempts are recorded right after their receipt.
  await sleep(500);
  const sqlPerDelivery = await countStatements(options.traceFile, Math.max(1, backlog), 3);
  await rm(options.traceFile, { force: true });
  const attempts = await pool.query<{ status: string | null; n: string }>(
    'select response_status::text as status, count(*) as n from delivery_attempts where workspace_id = $1 group by 1',
    [options.workspaceId],
  );
  await worker.stop();

  const phase = receiver.arrivals.slice(offset).filter((a) => a.path.startsWith('/backlog/'));
  const first = Math.min(...phase.map((a) => a.at));
  const last = Math.max(...phase.map((a) => a.at));
  const events = (
    await pool.query<{ id: string }>(
      `select id from events where workspace_id = $1 and type = 'record.created'`,
      [options.workspaceId],
    )
  ).rows.map((r) => r.id);
  const pairs = new Map<string, number>();
  for (const a of phase) pairs.set(`${a.path} ${a.eventId}`, (pairs.get(`${a.path} ${a.eventId}`) ?? 0) + 1);
  const expected = new Set<string>();
  for (let k = 0; k < options.subscriptions; k++)
    for (const id of events) expected.add(`/backlog/${k} ${id}`);
  const duplicates = [...pairs.values()].filter((n) => n > 1).length;
  const missing = [...expected].filter((pair) => !pairs.has(pair)).length;
  const unknown = [...pairs.keys()].filter((pair) => !expected.has(pair)).length;
  const perMs = (cpuSeconds: number | null) =>
    cpuSeconds === null || phase.length === 0 ? null : round((cpuSeconds * 1000) / phase.length, 3);
  return {
    records: options.records,
    subscriptions: options.subscriptions,
    backlog,
    writesPerSecond: Math.round(burst.created / writeSeconds),
    received: phase.length,
    deliveriesPerSecond: Math.round(phase.length / ((last - releasedAt) / 1000)),
    deliveriesPerSecondFirstToLast: last > first ? Math.round(phase.length / ((last - first) / 1000)) : 0,
    seconds: round((last - releasedAt) / 1000, 2),
    firstReceiptMs: round(first - releasedAt, 1),
    attempts: Object.fromEntries(attempts.rows.map((r) => [r.status ?? 'none', Number(r.n)])),
    cpu: cpuShare,
    cpuMsPerDelivery: { service: perMs(cpuShare.service), postgres: perMs(cpuShare.postgres) },
    sqlPerDelivery,
    exactlyOnce: {
      expected: expected.size,
      distinct: pairs.size,
      duplicates,
      missing,
      unknown,
      pass: duplicates === 0 && missing === 0 && unknown === 0,
    },
    complete,
  };
}
