import { readEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { startService } from './service.ts';

const env = readEnv();
const logger = createLogger(env.LOG_LEVEL);

try {
  const service = await startService(env, logger);
  logger.info({ url: service.url, docs: `${service.url}/api/v1/openapi.json` }, 'service listening');
  let signals = 0;
  const shutdown = (signal: string) => {
    signals++;
    if (signals > 1) process.exit(1);
    logger.info({ signal }, 'shutting down');
    service.stop().then(
      () => process.exit(0),
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
