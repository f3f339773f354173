import { type Database, listenToChannel } from '@crm/db';
import { ApiKeyCache, AUTH_CHANNEL, authChangeFromPayload } from '@crm/domain';
import type pg from 'pg';
import type { Logger } from '../logger.ts';

/** How often the uses of keys noted in memory are written (`lastUsedAt`). */
export const KEY_USES_FLUSH_MS = 5_000;

export interface KeyCacheDeps {
  db: Database;
  /** Pool of `db`; one of its connections listens for changes to keys. */
  pool: pg.Pool;
  logger: Logger;
}

export interface RunningKeyCache {
  cache: ApiKeyCache;
  /** Writes the uses still in memory and stops listening. */
  stop(): Promise<void>;
}

/**
 * The process's cache of verified API keys, kept true by a LISTEN on the auth channel
 * (docs/operations.md, "API keys in memory"): keys are kept only while that LISTEN is in
 * effect, and dropped the moment its connection is lost. Uses are written every
 * KEY_USES_FLUSH_MS and once more at stop.
 */
export function startKeyCache({ db, pool, logger }: KeyCacheDeps): RunningKeyCache {
  const cache = new ApiKeyCache(db);
  let stopping = false;
  const listener = listenToChannel(pool, AUTH_CHANNEL, {
    notified: (payload) => cache.apply(authChangeFromPayload(payload)),
    listening: () => cache.setListening(true),
    lost: (error, stage) => {
      cache.setListening(false);
      if (!stopping) logger.error({ err: error, stage }, 'the API key change listener lost its connection');
    },
  });
  const flush = () =>
    cache.flushUses().catch((error: unknown) => {
      logger.warn({ err: error }, 'could not write when API keys were last used; will try again');
    });
  const timer = setInterval(flush, KEY_USES_FLUSH_MS);
  timer.unref();
  return {
    cache,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await flush();
      cache.close();
      await listener.close();
    },
  };
}
