import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';

/**
 * The parts of graphile-worker the raw-queue floor uses. The bench package does not depend on
 * graphile-worker, so it is loaded from the server's own dependencies (the exact copy the
 * service runs) and typed here by hand.
 */
export interface GraphileRunner {
  stop(): Promise<void>;
  promise: Promise<void>;
}

type LogLevel = 'error' | 'warning' | 'info' | 'debug';

export interface GraphileRunOptions {
  pgPool: pg.Pool;
  concurrency: number;
  pollInterval: number;
  taskList: Record<string, (payload: unknown) => Promise<void> | void>;
  noHandleSignals: boolean;
  logger: unknown;
}

interface GraphileModule {
  run(options: GraphileRunOptions): Promise<GraphileRunner>;
  Logger: new (factory: () => (level: LogLevel, message: string) => void) => unknown;
}

/** graphile-worker as resolved from apps/server, with a logger that passes on warnings and errors only. */
export async function loadGraphileWorker(
  repoRoot: string,
  log: (line: string) => void,
): Promise<{
  run(options: Omit<GraphileRunOptions, 'logger' | 'noHandleSignals'>): Promise<GraphileRunner>;
  version: string;
}> {
  const require = createRequire(join(repoRoot, 'apps', 'server', 'package.json'));
  const entry = require.resolve('graphile-worker');
  const { version } = require('graphile-worker/package.json') as { version: string };
  const loaded = (await import(pathToFileURL(entry).href)) as Partial<GraphileModule> & {
    default?: GraphileModule;
  };
  const mod = (loaded.run ? loaded : loaded.default) as GraphileModule;
  const logger = new mod.Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') log(`graphile-worker ${level}: ${message}`);
  });
  return {
    version,
    run: (options) => mod.run({ ...options, noHandleSignals: true, logger }),
  };
}
