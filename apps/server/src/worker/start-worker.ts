import type { Database } from '@crm/db';
import type { DeliveryOptions } from '@crm/webhooks';
import type { EngineOptions } from '@crm/workflows';
import { Logger as GraphileLogger, type Runner, run, type Logger as WorkerLogger } from 'graphile-worker';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import { createTaskList, crontab } from './tasks.ts';

export interface WorkerOptions {
  pool: pg.Pool;
  db: Database;
  logger: Logger;
  outbound: DeliveryOptions;
  workflows: EngineOptions;
  concurrency?: number;
  pollIntervalMs?: number;
}

/** Starts the graphile-worker runner on the shared pool; several processes share the queue. */
export async function startWorker(options: WorkerOptions): Promise<Runner> {
  const log = options.logger.child({ component: 'worker' });
  const logger: WorkerLogger = new GraphileLogger(() => (level, message, meta) => {
    const method =
      level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    log[method]({ meta }, message);
  });
  const concurrency = options.concurrency ?? 5;
  return run({
    pgPool: options.pool,
    concurrency,
    // Fetch a batch of ready jobs at once and mark finished ones complete together: with
    // many short jobs (webhook deliveries) the queue's own queries were the bottleneck.
    preset: {
      worker: { localQueue: { size: concurrency + 1 }, completeJobBatchDelay: 2, failJobBatchDelay: 2 },
    },
    pollInterval: options.pollIntervalMs ?? 1_000,
    taskList: createTaskList(options.db, log, options.outbound, options.workflows),
    crontab,
    noHandleSignals: true,
    logger,
  });
}
