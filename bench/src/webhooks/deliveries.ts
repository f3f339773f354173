import { monitorEventLoopDelay } from 'node:perf_hooks';
import { missing as absent } from '@crm/domain';
import type pg from 'pg';
import { percentile, round } from '../time.ts';
import { type Api, createBurst, pacedWrites } from './load.ts';
import {
  type ActivitySummary,
  type CpuShare,
  cpuMeter,
  jobTableScans,
  type QueuePoint,
  sampleActivity,
  sampleQueue,
  type TableScans,
} from './observe.ts';
import type { Receiver } from './receiver.ts';

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50), 2),
    p99: round(percentile(sorted, 99), 2),
    max: round(sorted[sorted.length - 1] ?? Number.NaN, 2),
  };
};

export interface ThroughputResult {
  records: number;
  connections: number;
  created: number;
  /** POST /api/v1/records as seen by autocannon while the worker delivers alongside. */
  writesPerSecond: number;
  writeLatencyP50: number;
  writeLatencyP99: number;
  received: number;
  /** Received ÷ (last receipt − first commit): the figure held against the target. */
  deliveriesPerSecond: number;
  /** Deliveries received while the writes ran, per second of writing. */
  deliveriesPerSecondDuringWrites: number;
  /** Deliveries still to arrive when the last write was answered, and how long they took. */
  backlogAtWritesEnd: number;
  drainSeconds: number;
  /** The backlog ÷ the drain time: delivery with no API traffic competing. */
  drainDeliveriesPerSecond: number;
  /** First commit → last receipt. */
  seconds: number;
  /** Each burst record's 201 → its delivery, ms: the latency while the queue is loaded. */
  commitToReceiptUnderLoad: { p50: number; p99: number; max: number };
  /** Scans of graphile-worker's job table during the phase. */
  jobTableScans: TableScans;
  /** graphile-worker jobs per task, sampled every second, and the peaks. */
  queue: { peak: Record<string, number>; points: QueuePoint[] };
  /** The bench process (autocannon + receiver): event-loop utilisation and delay p99 (ms). */
  benchEventLoopUtilization: number;
  benchEventLoopDelayP99: number;
  cpu: CpuShare;
  activity: ActivitySummary;
  /** Whether every delivery arrived within the wait (the rest count as missing). */
  complete: boolean;
}

/**
 * The throughput phase: `records` POSTs as fast as autocannon goes, one record.created
 * each, then waits (at most `waitMs`) until the receiver has had as many deliveries.
 */
export async function measureThroughput(
  api: Api,
  receiver: Receiver,
  pool: pg.Pool,
  options: {
    records: number;
    connections: number;
    tag: string;
    waitMs: number;
    servicePid: number | undefined;
    sampleIntervalMs: number;
  },
  log: (line: string) => void,
): Promise<ThroughputResult> {
  const offset = receiver.arrivals.length;
  const activity = sampleActivity(pool, options.sampleIntervalMs);
  const queue = sampleQueue(pool);
  const scans = await jobTableScans(pool);
  const cpu = await cpuMeter(pool, options.servicePid);
  const elu = performance.eventLoopUtilization();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const burst = await createBurst(api, options.records, options.connections, options.tag);
  if (burst.non2xx > 0 || burst.errors > 0) {
    await activity.stop();
    await queue.stop();
    throw new Error(`record creation failed: ${burst.non2xx} non-2xx, ${burst.errors} errors/timeouts`);
  }
  const writeSeconds = (burst.lastCommitAt - burst.sentAt) / 1000;
  const receivedByWritesEnd = receiver.arrivals
    .slice(offset)
    .filter((a) => a.at <= burst.lastCommitAt).length;
  log(
    `  ${burst.created} records in ${writeSeconds.toFixed(1)} s (${Math.round(burst.created / writeSeconds)}/s); ` +
      `${receivedByWritesEnd} delivered meanwhile, waiting for the rest`,
  );
  const complete = await receiver.waitFor(offset + burst.created, options.waitMs);
  const used = performance.eventLoopUtilization(elu);
  delay.disable();
  const cpuShare = await cpu();
  const summary = await activity.stop();
  const queued = await queue.stop();
  const scanned = await scans();
  const phase = receiver.arrivals.slice(offset);
  const lastReceipt = Math.max(...phase.map((a) => a.at));
  const seconds = (lastReceipt - burst.firstCommitAt) / 1000;
  const writing = (burst.lastCommitAt - burst.firstCommitAt) / 1000;
  const backlog = burst.created - receivedByWritesEnd;
  const drainSeconds = Math.max(0, (lastReceipt - burst.lastCommitAt) / 1000);
  const underLoad: number[] = [];
  for (const a of phase) {
    const answered = a.recordId === null ? undefined : burst.answeredAt.get(a.recordId);
    if (answered !== undefined) underLoad.push(a.at - answered);
  }
  return {
    records: options.records,
    connections: options.connections,
    created: burst.created,
    writesPerSecond: Math.round(burst.created / writeSeconds),
    writeLatencyP50: burst.latencyP50,
    writeLatencyP99: burst.latencyP99,
    received: phase.length,
    deliveriesPerSecond: Math.round(phase.length / seconds),
    deliveriesPerSecondDuringWrites: Math.round(receivedByWritesEnd / writing),
    backlogAtWritesEnd: backlog,
    drainSeconds: round(drainSeconds, 2),
    drainDeliveriesPerSecond: drainSeconds > 0 ? Math.round(backlog / drainSeconds) : 0,
    seconds: round(seconds, 2),
    commitToReceiptUnderLoad: spread(underLoad),
    jobTableScans: scanned,
    queue: queued,
    benchEventLoopUtilization: round(used.utilization, 3),
    benchEventLoopDelayP99: round(delay.percentile(99) / 1e6, 1),
    cpu: cpuShare,
    activity: summary,
    complete,
  };
}

export interface LatencyResult {
  rate: number;
  seconds: number;
  writes: number;
  received: number;
  /** The brief's figure: 201 arrived at the bench → delivery arrived at the receiver, ms. */
  commitToReceipt: { p50: number; p99: number; max: number };
  /** An upper bound: the POST was sent → delivery arrived (includes the request itself), ms. */
  sendToReceipt: { p50: number; p99: number; max: number };
  /** POST round trip, ms. */
  writeP50: number;
  complete: boolean;
}

/** The latency phase: one write at a time at `rate` a second, each delivery matched by record id. */
export async function measureLatency(
  api: Api,
  receiver: Receiver,
  options: { rate: number; seconds: number; tag: string; waitMs: number },
): Promise<LatencyResult> {
  const offset = receiver.arrivals.length;
  const writes = await pacedWrites(api, options.rate, options.seconds, options.tag);
  const complete = await receiver.waitFor(offset + writes.length, options.waitMs);
  const arrivals = new Map(receiver.arrivals.slice(offset).map((a) => [a.recordId, a.at]));
  const commit: number[] = [];
  const send: number[] = [];
  for (const w of writes) {
    const at = arrivals.get(w.recordId);
    if (at === undefined) continue;
    commit.push(at - w.answeredAt);
    send.push(at - w.sentAt);
  }
  return {
    rate: options.rate,
    seconds: options.seconds,
    writes: writes.length,
    received: commit.length,
    commitToReceipt: spread(commit),
    sendToReceipt: spread(send),
    writeP50: spread(writes.map((w) => w.answeredAt - w.sentAt)).p50,
    complete,
  };
}

export interface ExactlyOnce {
  /** record.created events committed in the workspace (all phases). */
  events: number;
  /** Requests the receiver got. */
  received: number;
  distinctReceived: number;
  /** Event ids received more than once, and how many extra copies. */
  duplicateIds: number;
  extraCopies: number;
  /** Committed events never received, and received ids that match no committed event. */
  missing: number;
  unknown: number;
  /** Deliveries in the table, by status, and attempts beyond the first. */
  deliveriesByStatus: Record<string, number>;
  retries: number;
  examples: { duplicate: string[]; missing: string[]; unknown: string[] };
  pass: boolean;
}

/** Every record.created event of the workspace must have arrived exactly once at `path`. */
export async function checkExactlyOnce(
  pool: pg.Pool,
  workspaceId: string,
  receiver: Receiver,
  path: string,
): Promise<ExactlyOnce> {
  const arrivals = receiver.arrivals.filter((a) => a.path === path);
  const events = (
    await pool.query<{ id: string }>(
      `select id from events where workspace_id = $1 and type = 'record.created'`,
      [workspaceId],
    )
  ).rows.map((r) => r.id);
  const counts = new Map<string, number>();
  for (const a of arrivals) counts.set(a.eventId, (counts.get(a.eventId) ?? 0) + 1);
  const committed = new Set(events);
  const duplicate = [...counts.entries()].filter(([, n]) => n > 1);
  const missing = events.filter((id) => !counts.has(id));
  const unknown = [...counts.keys()].filter((id) => !committed.has(id));
  const statuses = await pool.query<{ status: string; n: string }>(
    'select status, count(*) as n from deliveries where workspace_id = $1 group by status',
    [workspaceId],
  );
  const retries = await pool.query<{ n: string }>(
    'select count(*) as n from delivery_attempts where workspace_id = $1 and attempt > 1',
    [workspaceId],
  );
  return {
    events: events.length,
    received: arrivals.length,
    distinctReceived: counts.size,
    duplicateIds: duplicate.length,
    extraCopies: duplicate.reduce((sum, [, n]) => sum + n - 1, 0),
    missing: missing.length,
    unknown: unknown.length,
    deliveriesByStatus: Object.fromEntries(statuses.rows.map((r) => [r.status, Number(r.n)])),
    retries: Number((retries.rows[0] ?? absent('retries.rows[0]')).n),
    examples: {
      duplicate: duplicate.slice(0, 5).map(([id]) => id),
      missing: missing.slice(0, 5),
      unknown: unknown.slice(0, 5),
    },
    pass: duplicate.length === 0 && missing.length === 0 && unknown.length === 0,
  };
}
