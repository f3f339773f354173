import type { Database } from '@crm/db';
import { pruneIdempotencyKeys, pruneRateLimitBuckets, purgeTrash } from '@crm/domain';
import type { TaskList } from 'graphile-worker';
import type { Logger } from '../logger.ts';

/** Background jobs, one entry per task; payloads are parsed before use (old jobs may linger). */
export function createTaskList(db: Database, logger: Logger): TaskList {
  return {
    purge_trash: async () => {
      const purged = await purgeTrash(db);
      if (purged > 0) logger.info({ purged }, 'purged records from Trash');
    },
    prune_rate_limits: async () => {
      await pruneRateLimitBuckets(db);
    },
    prune_idempotency_keys: async () => {
      await pruneIdempotencyKeys(db);
    },
  };
}

/**
 * Records in Trash are purged daily (contract §4); rate-limit buckets every 10 minutes;
 * Idempotency-Key records past their 24 hours every hour.
 */
export const crontab = [
  '0 3 * * * purge_trash ?max=1',
  '*/10 * * * * prune_rate_limits ?max=1',
  '17 * * * * prune_idempotency_keys ?max=1',
].join('\n');
