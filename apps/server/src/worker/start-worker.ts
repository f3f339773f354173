import { closePool, createDatabase, createPool, type Database } from '@crm/db';
import { type DeliveryOptions, startDispatcher } from '@crm/webhooks';
import type { EngineOptions } from '@crm/workflows';
import { Logger as GraphileLogger, run, type Logger as WorkerLogger } from 'graphile-worker';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import { createTaskList, crontab } from './tasks.ts';

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
 * deliveries wait for a connection, nor the reverse.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const log = options.logger.child({ component: 'worker' });
  const logger: WorkerLogger = new GraphileLogger(() => (level, message, meta) => {
    const method =
      level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    log[method]({ meta }, message);
  });
  const concurrency = options.concurrency ?? 5;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const runner = await run({
    pgPool: options.pool,
    concurrency,
    // Fetch a batch of ready jobs at once and mark finished ones complete together.
    preset: {
      worker: { localQueue: { size: concurrency + 1 }, completeJobBatchDelay: 2, failJobBatchDelay: 2 },
    },
    pollInterval: pollIntervalMs,
    taskList: createTaskList(options.db, log, options.workflows),
    crontab,
    noHandleSignals: true,
    logger,
  });
  const deliveryPool = createPool({
    connectionString: options.connectionString,
    max: DELIVERY_POOL_SIZE,
    applicationName: 'crm-deliveries',
  });
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
  });
  return {
    async stop() {
      await Promise.all([runner.stop(), dispatcher.stop()]);
      await closePool(deliveryPool);
    },
  };
}
