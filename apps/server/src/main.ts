import { limitHeapGrowth, readEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { startService } from './service.ts';

const env = readEnv();
const logger = createLogger(env.LOG_LEVEL);
limitHeapGrowth(env.HEAP_GROWTH_PERCENT);

/**
 * A signal that arrives this soon after the first is the same one passed along by a parent
 * (npm, the install wrapper) or sent to the whole process group by a terminal's Ctrl-C; a
 * later one means "stop now".
 */
const REPEAT_WINDOW_MS = 1_000;

try {
  const service = await startService(env, logger);
  logger.info(
    {
      role: service.role,
      url: service.url,
      ...(service.opsUrl ? { opsUrl: service.opsUrl } : {}),
      ...(service.server ? { docs: `${service.url}/api/v1/openapi.json` } : {}),
    },
    'service listening',
  );
  let firstSignalAt: number | undefined;
  const shutdown = (signal: string) => {
    const now = Date.now();
    if (firstSignalAt !== undefined) {
      if (now - firstSignalAt < REPEAT_WINDOW_MS) return;
      logger.warn({ signal }, 'second signal: exiting without finishing the shutdown');
      process.exit(1);
    }
    firstSignalAt = now;
    logger.info({ signal }, 'shutting down');
    service.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  logger.fatal({ err: error }, 'service failed to start');
  process.exit(1);
}
