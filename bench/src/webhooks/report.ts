import { missing } from '@crm/domain';
import type { CapacityResult } from './capacity.ts';
import type { ExactlyOnce, LatencyResult, ThroughputResult } from './deliveries.ts';
import type { ProfileSummary } from './profile.ts';
import type { BulkDrain, RawQueueResult } from './raw-queue.ts';
import type { SqlPerRecord } from './sql-trace.ts';

export interface Target {
  what: string;
  value: number;
  unit: string;
  target: string;
  pass: boolean;
}

export interface WebhookBenchResults {
  startedAt: string;
  finishedAt: string;
  seconds: number;
  machine: {
    cpus: number;
    node: string;
    platform: string;
    /** 1-minute load average when the run started and ended: other work on the machine skews everything. */
    loadAverage: { start: number; end: number };
  };
  database: string;
  settings: Record<string, number | string>;
  rawQueue: RawQueueResult;
  /** What the service sent PostgreSQL per record during the (traced) warm-up. */
  sqlPerRecord: SqlPerRecord;
  throughput: ThroughputResult;
  latency: LatencyResult;
  /** A backlog to several subscriptions, drained by a worker: the delivery capacity. */
  capacity: CapacityResult;
  exactlyOnce: ExactlyOnce;
  targets: Target[];
  /** The service under --cpu-prof during a second, shorter burst (when it ran). */
  profile?: {
    reason: string;
    throughput: ThroughputResult;
    cpu: ProfileSummary;
  };
}

/** The first column is left-aligned, the others right-aligned, but the last one when it is free text. */
function table(header: string[], rows: string[][], textLast = false): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const last = header.length - 1;
  const line = (cells: string[]) =>
    cells
      .map((c, i) => {
        if (i === 0) return c.padEnd(widths[i] ?? missing('widths[i]'));
        if (i === last && textLast) return c;
        return c.padStart(widths[i] ?? missing('widths[i]'));
      })
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const fixed = (value: number | null, digits = 1) =>
  value !== null && Number.isFinite(value) ? value.toFixed(digits) : '-';
const int = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '-');

const drainDetail = (d: BulkDrain) =>
  `${int(d.jobs)} jobs drained in ${fixed(d.drainSeconds, 2)} s (added in ${fixed(d.addSeconds, 2)} s); ` +
  `${int(d.scans.seqScans)} seq scans of the job table reading ${int(d.scans.seqRowsRead)} rows`;

export function formatResults(r: WebhookBenchResults): string {
  const out: string[] = [];
  const q = r.rawQueue;
  const t = r.throughput;
  const l = r.latency;
  const x = r.exactlyOnce;
  const c = r.capacity;
  out.push(
    `Webhook bench: ${r.machine.cpus} CPUs, Node ${r.machine.node}, PostgreSQL ${r.database}; ` +
      `graphile-worker ${q.graphileWorker}, concurrency ${q.concurrency}, pool ${q.poolSize}, poll ${q.pollIntervalMs} ms; ` +
      `load average ${fixed(r.machine.loadAverage.start, 2)} at start, ${fixed(r.machine.loadAverage.end, 2)} at end`,
  );
  out.push('');
  out.push(
    table(
      ['Measure', 'Value', 'Detail'],
      [
        [
          'raw no-op jobs/s (graphile-worker)',
          int(q.bulk.replanned.jobsPerSecond),
          `${drainDetail(q.bulk.replanned)}, after VACUUM ANALYZE of the job table`,
        ],
        [
          '  first drain (plans from a small queue)',
          int(q.bulk.cold.jobsPerSecond),
          drainDetail(q.bulk.cold),
        ],
        [
          'raw add→start p50 / p99 ms',
          `${fixed(q.addToStart.p50)} / ${fixed(q.addToStart.p99)}`,
          `${q.addToStart.jobs} jobs one by one at ${q.addToStart.ratePerSecond}/s, max ${fixed(q.addToStart.max)}`,
        ],
        [
          'deliveries/s (capacity)',
          int(c.deliveriesPerSecond),
          `backlog of ${int(c.backlog)} (${int(c.records)} records × ${c.subscriptions} subscriptions) released → ` +
            `last receipt in ${fixed(c.seconds, 2)} s; first receipt after ${fixed(c.firstReceiptMs, 0)} ms, ` +
            `${int(c.deliveriesPerSecondFirstToLast)}/s first → last receipt`,
        ],
        [
          '  CPU per delivery ms (service / PostgreSQL)',
          `${fixed(c.cpuMsPerDelivery.service, 3)} / ${fixed(c.cpuMsPerDelivery.postgres, 3)}`,
          `/proc over the drain: service ${fixed(c.cpu.service, 1)} s, PostgreSQL ${fixed(c.cpu.postgres, 1)} s, ` +
            `bench ${fixed(c.cpu.bench, 1)} s in ${fixed(c.cpu.wallSeconds, 1)} s wall`,
        ],
        [
          '  SQL per delivery',
          fixed(c.sqlPerDelivery.statements, 3),
          `statements the worker sent during the drain, ${fixed(c.sqlPerDelivery.transactions, 3)} BEGINs; attempts ` +
            `recorded by status: ${Object.entries(c.attempts)
              .map(([status, n]) => `${status} ${int(n)}`)
              .join(', ')}`,
        ],
        [
          '  exactly once (subscription × event)',
          c.exactlyOnce.pass ? 'PASS' : 'FAIL',
          `${int(c.exactlyOnce.expected)} expected, ${int(c.exactlyOnce.distinct)} received, ` +
            `${c.exactlyOnce.duplicates} duplicated, ${c.exactlyOnce.missing} missing, ${c.exactlyOnce.unknown} unknown`,
        ],
        [
          'deliveries/s (under write load)',
          int(t.deliveriesPerSecond),
          `${int(t.received)} received in ${fixed(t.seconds, 2)} s, first commit → last receipt; one subscription, ` +
            "so bounded by the API's record creation",
        ],
        [
          '  while writing / draining',
          `${int(t.deliveriesPerSecondDuringWrites)} / ${int(t.drainDeliveriesPerSecond)}`,
          `backlog ${int(t.backlogAtWritesEnd)} at the last write, drained in ${fixed(t.drainSeconds, 2)} s`,
        ],
        [
          '  commit→receipt under load p50 / p99 ms',
          `${fixed(t.commitToReceiptUnderLoad.p50, 0)} / ${fixed(t.commitToReceiptUnderLoad.p99, 0)}`,
          `each burst record's 201 → its delivery, max ${fixed(t.commitToReceiptUnderLoad.max, 0)}; queue peaks: ` +
            Object.entries(t.queue.peak)
              .map(([task, n]) => `${task} ${int(n)}`)
              .join(', '),
        ],
        [
          '  job table scans',
          int(t.jobTableScans.seqScans),
          `sequential scans of graphile_worker._private_jobs reading ${int(t.jobTableScans.seqRowsRead)} rows, ` +
            `${int(t.jobTableScans.indexScans)} index scans`,
        ],
        [
          '  writes (POST /records)',
          `${int(t.writesPerSecond)}/s`,
          `${t.connections} connections, p50 ${fixed(t.writeLatencyP50, 0)} ms, p99 ${fixed(t.writeLatencyP99, 0)} ms`,
        ],
        [
          'commit→receipt p50 / p99 ms',
          `${fixed(l.commitToReceipt.p50)} / ${fixed(l.commitToReceipt.p99)}`,
          `${l.received}/${l.writes} at ${l.rate}/s, max ${fixed(l.commitToReceipt.max)}; from send: ` +
            `${fixed(l.sendToReceipt.p50)} / ${fixed(l.sendToReceipt.p99)} (POST p50 ${fixed(l.writeP50)})`,
        ],
        [
          'exactly once',
          x.pass ? 'PASS' : 'FAIL',
          `${int(x.events)} events, ${int(x.received)} received, ${x.duplicateIds} duplicated, ` +
            `${x.missing} missing, ${x.unknown} unknown, ${x.retries} retries`,
        ],
      ],
      true,
    ),
  );
  out.push('');
  out.push(
    table(
      ['Target', 'Measured', 'Goal', 'Result'],
      r.targets.map((g) => [
        g.what,
        `${fixed(g.value, g.unit === 'ms' ? 1 : 0)} ${g.unit}`,
        g.target,
        g.pass ? 'PASS' : 'FAIL',
      ]),
    ),
  );
  out.push('');
  const sql = r.sqlPerRecord;
  out.push(
    `SQL per created and delivered record (traced warm-up of ${sql.records} records): ${fixed(sql.statements)} statements, ` +
      `${fixed(sql.transactions)} BEGINs, ${fixed(sql.queueStatements)} job fetches/completions`,
  );
  out.push(
    table(
      ['Statement', 'per record'],
      sql.top.map((x) => [x.statement, fixed(x.perRecord, 2)]),
    ),
  );
  out.push('');
  out.push(`SQL per delivery during the capacity drain (${int(c.backlog)} deliveries):`);
  out.push(
    table(
      ['Statement', 'per delivery'],
      c.sqlPerDelivery.top.slice(0, 10).map((x) => [x.statement, fixed(x.perRecord, 3)]),
    ),
  );
  out.push('');
  const cpu = t.cpu;
  out.push(
    `CPU during the throughput phase (${fixed(cpu.wallSeconds)} s wall, ${r.machine.cpus} cores): service ${fixed(cpu.service, 1)} s, ` +
      `PostgreSQL ${fixed(cpu.postgres, 1)} s, bench ${fixed(cpu.bench, 1)} s; bench event loop ` +
      `${fixed(100 * t.benchEventLoopUtilization, 0)} % busy, delay p99 ${fixed(t.benchEventLoopDelayP99)} ms`,
  );
  out.push(
    `pg_stat_activity (${t.activity.samples} samples every ${t.activity.intervalMs} ms, ${fixed(t.activity.meanBusySessions, 2)} busy sessions on average):`,
  );
  out.push(
    table(
      ['Wait', '% of busy', 'sessions'],
      t.activity.byWait.map((w) => [w.what, fixed(w.percent), fixed(w.meanSessions, 2)]),
    ),
  );
  out.push(
    table(
      ['Statement (busy sessions)', '% of busy', 'sessions'],
      t.activity.byQuery.map((w) => [w.what, fixed(w.percent), fixed(w.meanSessions, 2)]),
    ),
  );
  if (t.activity.waitsByQuery.length > 0) {
    out.push(
      table(
        ['Lock waits by statement', '% of busy', 'sessions'],
        t.activity.waitsByQuery.map((w) => [w.what, fixed(w.percent), fixed(w.meanSessions, 2)]),
      ),
    );
  }
  const every = Math.max(1, Math.ceil(t.queue.points.length / 12));
  out.push(
    `Queue during the throughput phase (jobs per task, every ${every} s): ` +
      t.queue.points
        .filter((_, i) => i % every === 0)
        .map(
          (p) =>
            `${fixed(p.t, 0)}s ${
              Object.entries(p.jobs)
                .map(([task, n]) => `${task}=${n}`)
                .join('/') || 'empty'
            }`,
        )
        .join(', '),
  );
  if (r.profile) {
    const p = r.profile;
    out.push('');
    out.push(
      `CPU profile of the service (${p.reason}): ${int(p.throughput.created)} records, ` +
        `${int(p.throughput.deliveriesPerSecond)} deliveries/s under the profiler; ` +
        `${fixed(p.cpu.busyMs / 1000, 1)} s non-idle of ${fixed(p.cpu.totalMs / 1000, 1)} s sampled, while /proc counts ` +
        `${fixed(p.throughput.cpu.service, 1)} s of CPU for the service (PostgreSQL ${fixed(p.throughput.cpu.postgres, 1)} s): ` +
        'V8 samples wall time, so time spent runnable but off the CPU lands on the function it was in (mostly writev)',
    );
    out.push(
      table(
        ['Package (self time)', 'ms', '%'],
        p.cpu.byPackage.map((s) => [s.name, fixed(s.ms, 0), fixed(s.percent)]),
      ),
    );
    out.push(
      table(
        ['Function (self time)', 'ms', '%'],
        p.cpu.byFunction.map((s) => [s.name, fixed(s.ms, 0), fixed(s.percent)]),
      ),
    );
  }
  return out.join('\n');
}
