import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { AUDIT_RETENTION_DAYS, IMPORT_CHUNKS_IN_FLIGHT, sweepJobs } from '@crm/domain';
import { closeSandbox } from '@crm/sandbox';
import { type DeliveryOptions, startDispatcher } from '@crm/webhooks';
import type { EngineOptions } from '@crm/workflows';
import { Logger as GraphileLogger, type Runner, run, type Logger as WorkerLogger } from 'graphile-worker';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import { createJobList, crontab } from './job-list.ts';
import { drainLegacyWebhookJobs } from './legacy-webhook-jobs.ts';

export interface WorkerOptions {
  pool: pg.Pool;
  db: Database;
  connectionString: string;
  logger: Logger;
  outbound: DeliveryOptions;
  workflows: EngineOptions;
  concurrency?: number;
  pollIntervalMs?: number;
  /** Webhook attempts in flight at once. */
  deliveryConcurrency?: number;
  /** Deliveries claimed, and attempts recorded, per statement. */
  deliveryBatchSize?: number;
  /** Where delivery outcomes and the dispatcher's pool are reported. */
  metrics?: Metrics;
  /** Days audit log entries are kept (AUDIT_RETENTION_DAYS). */
  auditRetentionDays?: number;
  /** Chunks an order-free import writes at once (IMPORT_CHUNKS_IN_FLIGHT). */
  importChunksInFlight?: number;
}

export interface Worker {
  stop(): Promise<void>;
}

/** Connections of the webhook dispatcher: one listening, one claiming, one recording, one spare. */
const DELIVERY_POOL_SIZE = 4;

/**
 * Starts the background work of this process; several processes share it through
 * PostgreSQL. graphile-worker runs the scheduled and one-off jobs on the shared pool. The
 * webhook dispatcher has a small pool of its own, so a burst of API requests never makes
 * deliveries wait for a connection, nor the reverse. First, the webhook jobs an earlier
 * version may have left in the queue are drained into the deliveries table
 * (docs/operations.md, "Upgrade notes").
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const log = options.logger.child({ component: 'worker' });
  const legacy = await drainLegacyWebhookJobs(options.pool, options.db);
  if (legacy.removed > 0 || legacy.deliveries > 0)
    log.info(legacy, 'drained webhook jobs queued by an earlier version into the deliveries table');
  const logger: WorkerLogger = new GraphileLogger(() => (level, message, meta) => {
    const method =
      level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    log[method]({ meta }, message);
  });
  const concurrency = options.concurrency ?? 5;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const startRunner = () =>
    run({
      pgPool: options.pool,
      concurrency,
      // Fetch a batch of ready jobs at once and mark finished ones complete together.
      preset: {
        worker: { localQueue: { size: concurrency + 1 }, completeJobBatchDelay: 2, failJobBatchDelay: 2 },
      },
      pollInterval: pollIntervalMs,
      taskList: createJobList(options.db, log, options.workflows, {
        auditRetentionDays: options.auditRetentionDays ?? AUDIT_RETENTION_DAYS,
        importChunksInFlight: options.importChunksInFlight ?? IMPORT_CHUNKS_IN_FLIGHT,
      }),
      crontab,
      noHandleSignals: true,
      logger,
    });
  absorbQueueReleaseFailures(log);
  const runner = superviseRunner(await startRunner(), startRunner, log);
  const deliveryPool = createPool({
    connectionString: options.connectionString,
    max: DELIVERY_POOL_SIZE,
    applicationName: 'crm-deliveries',
  });
  const { metrics } = options;
  metrics?.watchPool('deliveries', deliveryPool);
  const dispatcher = await startDispatcher({
    db: createDatabase(deliveryPool),
    pool: deliveryPool,
    outbound: options.outbound,
    logger: options.logger.child({ component: 'webhooks' }),
    pollIntervalMs,
    // A claim outlasts the longest attempt by far (it ends early when the attempt is recorded).
    leaseMs: Math.max(60_000, (options.outbound.timeoutMs ?? 15_000) + 30_000),
    ...(options.deliveryConcurrency ? { concurrency: options.deliveryConcurrency } : {}),
    ...(options.deliveryBatchSize ? { batchSize: options.deliveryBatchSize } : {}),
    ...(metrics ? { observer: { recorded: metrics.deliveryRecorded.bind(metrics) } } : {}),
  });
  metrics?.watchDispatcher(() => dispatcher.activity());
  const sweeper = sweepJobsEvery(options.db, log);
  return {
    async stop() {
      clearInterval(sweeper);
      await Promise.all([runner.stop(), dispatcher.stop()]);
      // CODE steps' threads, once no job can start another.
      await closeSandbox();
      await closePool(deliveryPool);
    },
  };
}

/** How often a worker looks for jobs whose runner died (docs/jobs.md, "Exactly once"). */
const SWEEP_JOBS_MS = 5_000;

/**
 * Every few seconds, queues again the jobs whose runner's lease ran out (`sweepJobs`): a job
 * whose worker was killed goes on within seconds. A failed sweep (the database away) is
 * logged and tried again at the next tick.
 */
function sweepJobsEvery(db: Database, log: Logger): NodeJS.Timeout {
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepJobs(db)
      .then((queued) => {
        if (queued > 0) log.warn({ queued }, 'queued again jobs whose runner stopped');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'could not look for jobs whose runner stopped'))
      .finally(() => {
        sweeping = false;
      });
  }, SWEEP_JOBS_MS);
  timer.unref();
  return timer;
}

/** Delays before starting a stopped job runner again: 1 s, doubling up to 30 s. */
const RESTART_DELAYS_MS = { first: 1_000, longest: 30_000 };
/** How long a runner that stopped on its own is given to finish before it is left behind. */
const SETTLE_MS = 5_000;
/** How long stopping the worker waits for the runner. */
const STOP_TIMEOUT_MS = 15_000;

/**
 * graphile-worker copes with a lost connection while it looks for jobs (it tries again at the
 * next poll, and its LISTEN connection reconnects), but shuts its runner down when it cannot
 * mark a batch of jobs complete or failed — as happens when the database restarts at that
 * moment — and that shutdown may itself never finish when the database stays away long enough
 * for several batches to fail. The process would go on without running jobs. So when a runner
 * starts shutting down on its own, a new one is started (after a short delay, and again with
 * growing delays while the database is away). The old one is given a few seconds to finish;
 * one that has not by then is stopped without waiting (its schedule ends; whatever it still
 * holds is left). The jobs a stopped runner held are released by `unlock_stuck_jobs`
 * (docs/operations.md, "Database restarts and outages").
 */
function superviseRunner(
  first: Runner,
  start: () => Promise<Runner>,
  log: Logger,
): { stop(): Promise<void> } {
  let current: Runner | undefined = first;
  /** A runner that stopped on its own and is being given time to finish. */
  let settling: Runner | undefined;
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const finished = (runner: Runner) =>
    runner.promise.then(
      () => true,
      () => true,
    );
  /** Resolves once the runner starts shutting down, or has stopped. */
  const stoppingOnItsOwn = (runner: Runner) =>
    new Promise<void>((resolve) => {
      runner.events.once('pool:gracefulShutdown', () => resolve());
      void finished(runner).then(() => resolve());
    });

  const supervised = (async () => {
    while (current && !stopping) {
      const runner: Runner = current;
      await stoppingOnItsOwn(runner);
      if (stopping) return;
      current = undefined;
      log.error('the job runner stopped; starting a new one');
      settling = runner;
      const settled = await Promise.race([finished(runner), sleep(SETTLE_MS).then(() => false)]);
      settling = undefined;
      if (stopping) return;
      if (!settled) {
        log.warn('the stopped job runner did not finish shutting down; it is left behind');
        void runner.stop().catch(() => undefined);
      }
      for (let delay = RESTART_DELAYS_MS.first; !stopping; ) {
        await sleep(delay);
        if (stopping) return;
        try {
          const started = await start();
          if (stopping) {
            await started.stop().catch(() => undefined);
            return;
          }
          current = started;
          log.info('the job runner started again');
          break;
        } catch (error) {
          log.error({ err: error }, 'the job runner could not start; trying again');
          delay = Math.min(delay * 2, RESTART_DELAYS_MS.longest);
        }
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      wakeUp?.();
      void settling?.stop().catch(() => undefined);
      const runner = current;
      current = undefined;
      if (runner) {
        // graphile-worker's shutdown may not finish while the database is away: bounded.
        let timer: NodeJS.Timeout | undefined;
        const stopped = await Promise.race([
          runner.stop().then(
            () => true,
            () => true,
          ),
          new Promise<false>((resolve) => {
            timer = setTimeout(() => resolve(false), STOP_TIMEOUT_MS);
          }),
        ]);
        clearTimeout(timer);
        if (!stopped) log.warn('the job runner did not finish shutting down in time');
      }
      await supervised;
    },
  };
}

const QUEUE_RELEASE_FAILURE = 'Error occurred whilst returning jobs from local queue to database queue';
let absorbing = false;

/**
 * A runner that stops while its local queue holds fetched jobs gives them back to the
 * database. graphile-worker 0.17 leaves that attempt's promise without a handler when the
 * queue had nothing else in flight, so when the database is away at that moment (the runner
 * stopped because of it) the rejection would end the process. That one rejection is logged
 * instead: the jobs stay locked by the stopped runner until `unlock_stuck_jobs` releases them.
 * Any other unhandled rejection is left to other listeners, or ends the process as it would
 * without this one. Installed once per process.
 */
function absorbQueueReleaseFailures(log: Logger): void {
  if (absorbing) return;
  absorbing = true;
  process.on('unhandledRejection', (reason) => {
    if (reason instanceof Error && reason.message.startsWith(QUEUE_RELEASE_FAILURE)) {
      log.warn(
        { err: reason },
        'a stopped job runner could not give back its fetched jobs; they are released later',
      );
      return;
    }
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
}
