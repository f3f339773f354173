import { closePool, createPool } from '@crm/db';
import { missing } from '@crm/domain';
import { percentile, round, sleep, withTimeout } from '../time.ts';
import type { GraphileRunner, loadGraphileWorker } from './graphile.ts';
import { jobTableScans, type TableScans } from './observe.ts';

export interface RawQueueSettings {
  /** Jobs added in one statement and drained (the throughput floor). */
  bulkJobs: number;
  /** Jobs added one by one for the add→start latency. */
  latencyJobs: number;
  /** Jobs per second while adding them one by one. */
  latencyRate: number;
  /** The service's worker settings. */
  concurrency: number;
  poolSize: number;
  pollIntervalMs: number;
}

export interface RawQueueResult {
  graphileWorker: string;
  concurrency: number;
  poolSize: number;
  pollIntervalMs: number;
  /**
   * The first drain: the workers' prepared job fetch was planned while the queue was small.
   * Then `VACUUM ANALYZE` of the job table (what autovacuum does eventually) makes every
   * session plan it again, and the same number of jobs is drained a second time.
   */
  bulk: { cold: BulkDrain; replanned: BulkDrain };
  addToStart: {
    jobs: number;
    ratePerSecond: number;
    /** From the add_job call (an autocommit statement) until the task function starts, in ms. */
    p50: number;
    p99: number;
    max: number;
  };
}

export interface BulkDrain {
  jobs: number;
  /** Time of the one add_jobs statement. */
  addSeconds: number;
  /** From the add_jobs commit until the job table is empty again. */
  drainSeconds: number;
  jobsPerSecond: number;
  /** Scans of the job table meanwhile: sequential scans read the whole queue each time. */
  scans: TableScans;
}

const TASK = 'bench_noop';
const now = () => performance.now();

/**
 * graphile-worker on its own, as the service runs it (same concurrency, pool size and poll
 * interval) with a task that does nothing: how fast the queue drains a bulk insert, and how
 * soon a job added alone starts (LISTEN/NOTIFY path).
 */
export async function measureRawQueue(
  connectionString: string,
  graphile: Awaited<ReturnType<typeof loadGraphileWorker>>,
  settings: RawQueueSettings,
  log: (line: string) => void,
): Promise<RawQueueResult> {
  const pool = createPool({ connectionString, max: settings.poolSize, applicationName: 'bench-raw-queue' });
  let runner: GraphileRunner | undefined;
  const started = new Map<number, number>();
  let done = 0;
  /** The count of runs at which `drain` wants waking. */
  let target = Number.POSITIVE_INFINITY;
  let wake: (() => void) | undefined;
  try {
    runner = await graphile.run({
      pgPool: pool,
      concurrency: settings.concurrency,
      pollInterval: settings.pollIntervalMs,
      taskList: {
        [TASK]: (payload) => {
          const i = (payload as { i?: number }).i;
          if (typeof i === 'number' && i >= 0) started.set(i, now());
          done++;
          if (done >= target) wake?.();
        },
      },
    });
    const remaining = async () =>
      Number(
        (
          await pool.query<{ n: string }>(
            'select count(*) as n from graphile_worker.jobs where task_identifier = $1',
            [TASK],
          )
        ).rows[0]?.n ?? missing('the row a count returns'),
      );
    const addBulk = (count: number) =>
      pool.query(
        `select count(*) from graphile_worker.add_jobs(array(
           select row($1, json_build_object('i', -1), null, null, null, null, null, null)::graphile_worker.job_spec
             from generate_series(1, $2::int)))`,
        [TASK, count],
      );
    /**
     * Waits (without touching the database) until the task has run `expected` times in all,
     * then polls the job table every 5 ms until the last completions have committed.
     */
    const drain = async (expected: number, deadlineMs: number) => {
      const deadline = now() + deadlineMs;
      target = expected;
      while (done < expected) {
        if (now() > deadline)
          throw new Error(`raw queue: ${done} of ${expected} jobs ran in ${deadlineMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      for (;;) {
        if ((await remaining()) === 0) return now();
        if (now() > deadline) throw new Error(`raw queue: jobs left after ${deadlineMs} ms`);
        await sleep(5);
      }
    };

    // Warm-up: the first jobs compile the worker's statements and open the pool's connections.
    await addBulk(500);
    await drain(500, 30_000);

    const bulk = async (label: string): Promise<BulkDrain> => {
      log(
        `raw queue: adding ${settings.bulkJobs.toLocaleString('en-US')} no-op jobs in one statement (${label})`,
      );
      done = 0;
      const scans = await jobTableScans(pool);
      const addStarted = now();
      await addBulk(settings.bulkJobs);
      const committed = now();
      const drained = await drain(settings.bulkJobs, 180_000);
      const drainSeconds = (drained - committed) / 1000;
      const result = {
        jobs: settings.bulkJobs,
        addSeconds: round((committed - addStarted) / 1000, 2),
        drainSeconds: round(drainSeconds, 2),
        jobsPerSecond: Math.round(settings.bulkJobs / drainSeconds),
        scans: await scans(),
      };
      log(
        `  drained in ${drainSeconds.toFixed(2)} s: ${result.jobsPerSecond} jobs/s ` +
          `(${result.scans.seqScans} sequential scans reading ${result.scans.seqRowsRead.toLocaleString('en-US')} rows)`,
      );
      return result;
    };
    const cold = await bulk('prepared statements planned on a small queue');
    await pool.query('vacuum analyze graphile_worker._private_jobs');
    const replanned = await bulk('after VACUUM ANALYZE of the job table');

    log(
      `raw queue: ${settings.latencyJobs} jobs added one by one at ${settings.latencyRate}/s (add→start latency)`,
    );
    done = 0;
    const added = new Map<number, number>();
    const t0 = now();
    const interval = 1000 / settings.latencyRate;
    for (let i = 0; i < settings.latencyJobs; i++) {
      const wait = t0 + i * interval - now();
      if (wait > 0) await sleep(wait);
      added.set(i, now());
      await pool.query(`select graphile_worker.add_job($1, json_build_object('i', $2::int))`, [TASK, i]);
    }
    await drain(settings.latencyJobs, 30_000);
    const latencies: number[] = [];
    for (const [i, at] of added) {
      const start = started.get(i);
      if (start === undefined) throw new Error(`raw queue: job ${i} never started`);
      latencies.push(start - at);
    }
    latencies.sort((a, b) => a - b);
    return {
      graphileWorker: graphile.version,
      concurrency: settings.concurrency,
      poolSize: settings.poolSize,
      pollIntervalMs: settings.pollIntervalMs,
      bulk: { cold, replanned },
      addToStart: {
        jobs: settings.latencyJobs,
        ratePerSecond: settings.latencyRate,
        p50: round(percentile(latencies, 50), 2),
        p99: round(percentile(latencies, 99), 2),
        max: round(latencies[latencies.length - 1] ?? missing('latencies[latencies.length - 1]'), 2),
      },
    };
  } finally {
    await (runner ? withTimeout(runner.stop(), 15_000, 'stopping the raw worker') : Promise.resolve()).catch(
      (error: unknown) => log(`warning: stopping the raw worker: ${String(error)}`),
    );
    await closePool(pool);
  }
}
