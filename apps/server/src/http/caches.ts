import { type Database, listenToChannel } from '@crm/db';
import {
  ApiKeyCache,
  AUTH_CHANNEL,
  attachFolderCache,
  attachLinkTallies,
  authChangeFromPayload,
  FOLDER_CHANNEL,
  FolderCache,
  LinkTallies,
} from '@crm/domain';
import type pg from 'pg';
import type { Logger } from '../logger.ts';

/** How often the uses of keys noted in memory are written (`lastUsedAt`). */
const KEY_USES_FLUSH_MS = 5_000;

export interface CachesDeps {
  db: Database;
  /** Pool of `db`; one of its connections listens for changes to keys and folders. */
  pool: pg.Pool;
  logger: Logger;
}

export interface RunningCaches {
  keys: ApiKeyCache;
  folders: FolderCache;
  /** Writes the key uses still in memory and stops listening. */
  stop(): Promise<void>;
}

/**
 * The API process's caches of verified API keys and of folders (docs/operations.md, "API keys
 * in memory" and "Folders in memory"), kept true by one LISTEN on the auth and folder
 * channels: both keep entries only while that LISTEN is in effect, and drop them the moment
 * its connection is lost. Reads of folders through `db` go through the folder cache. Key
 * uses are written every KEY_USES_FLUSH_MS and once more at stop.
 */
export function startCaches({ db, pool, logger }: CachesDeps): RunningCaches {
  const keys = new ApiKeyCache(db);
  const folders = new FolderCache();
  attachFolderCache(db, folders);
  // Counts of links per record and field, which need no notification: a tally only ever
  // stands in for a count far from the limit (link-tallies.ts).
  attachLinkTallies(db, new LinkTallies());
  const setListening = (on: boolean) => {
    keys.setListening(on);
    folders.setListening(on);
  };
  let stopping = false;
  const listener = listenToChannel(pool, [AUTH_CHANNEL, FOLDER_CHANNEL], {
    notified: (payload, channel) => {
      if (channel === FOLDER_CHANNEL) folders.notified(payload);
      else keys.apply(authChangeFromPayload(payload));
    },
    listening: () => setListening(true),
    lost: (error, stage) => {
      setListening(false);
      if (!stopping)
        logger.error({ err: error, stage }, 'the key and folder change listener lost its connection');
    },
  });
  const flush = () =>
    keys.flushUses().catch((error: unknown) => {
      logger.warn({ err: error }, 'could not write when API keys were last used; will try again');
    });
  const timer = setInterval(flush, KEY_USES_FLUSH_MS);
  timer.unref();
  return {
    keys,
    folders,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await flush();
      keys.close();
      folders.close();
      await listener.close();
    },
  };
}
