import type { Database } from '@crm/db';
import { pruneRateLimitBuckets, purgeTrash } from '@crm/domain';
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
  };
}

/** Records in Trash are purged daily (contract §4); rate-limit buckets pruned every 10 minutes. */
export const crontab = ['0 3 * * * purge_trash ?max=1', '*/10 * * * * prune_rate_limits ?max=1'].join('\n');
