import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  closePool,
  createDatabase,
  createPool,
  type Database,
  resolveDataDir,
  runMigrations,
  startEmbeddedPostgres,
} from '@crm/db';
import { configureSecretKeysFrom, RateLimitBatcher, sealStoredSecrets } from '@crm/domain';
import type pg from 'pg';
import { createApp } from './app.ts';
import type { Env } from './env.ts';
import { answerClientErrors } from './http/client-error.ts';
import { trackRequests } from './http/in-flight.ts';
import { startKeyCache } from './http/key-cache.ts';
import { createLogger, type Logger } from './logger.ts';
import { apiServices, outboundSettings } from './outbound.ts';
import { readCorsOrigins } from './rest/http-conventions.ts';
import { startWorker, type Worker } from './worker/start-worker.ts';

/**
 * The product's version: the one `pnpm changeset version` writes into every package's
 * manifest (all packages move together; docs/operations.md, "Versions and releases").
 */
export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

export interface Service {
  /** Base URL the HTTP server listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  connectionString: string;
  db: Database;
  pool: pg.Pool;
  server: Server;
  logger: Logger;
  stop(): Promise<void>;
}

/**
 * Starts everything the service needs: the database (embedded unless DATABASE_URL is set),
 * its migrations, the HTTP server and, unless disabled, the background worker.
 */
export async function startService(env: Env, logger: Logger = createLogger(env.LOG_LEVEL)): Promise<Service> {
  const dataDir = resolveDataDir(env.DATA_DIR);
  await configureSecrets(env, dataDir, logger);
  let stopDatabase = async () => {};
  let connectionString = env.DATABASE_URL;
  if (!connectionString) {
    const embedded = await startEmbeddedPostgres({
      dataDir,
      port: env.EMBEDDED_PG_PORT,
      // PostgreSQL's DETAIL lines may quote the values of a failing row: never mirrored.
      onLog: (line) => {
        if (!line.includes('DETAIL:')) logger.debug({ component: 'postgres' }, line.trim());
      },
    });
    logger.info(
      { dataDir, url: embedded.serverUrl.replace(/:[^:@/]+@/, ':***@') },
      'embedded PostgreSQL started',
    );
    connectionString = embedded.connectionString;
    stopDatabase = embedded.stop;
  }
  try {
    await runMigrations(connectionString);
    const pool = createPool({ connectionString, max: env.DATABASE_POOL_SIZE });
    const db = createDatabase(pool);
    // Secrets stored before encryption are sealed once, by whichever process gets there first.
    const sealed = await sealStoredSecrets(db);
    if (sealed.webhooks + sealed.workflows > 0) logger.info(sealed, 'encrypted secrets stored in plaintext');
    // Rate-limit counters commit without waiting for the disk: every request of a workspace
    // updates the same row, and a crash may only forget the last moment's counts.
    const countersPool = createPool({
      connectionString,
      max: Math.max(2, Math.ceil(env.DATABASE_POOL_SIZE / 4)),
      applicationName: 'crm-counters',
      synchronousCommit: false,
    });
    const countersDb = createDatabase(countersPool);
    const keys = startKeyCache({ db, pool, logger });
    const limits = new RateLimitBatcher(countersDb);
    const outbound = outboundSettings(env);
    let worker: Worker | undefined;
    if (env.RUN_WORKER === 'true') {
      worker = await startWorker({
        pool,
        db,
        connectionString,
        logger,
        outbound,
        workflows: {
          http: outbound,
          retry: { scale: env.WORKFLOW_RETRY_SCALE, jitter: 0.2 },
        },
        concurrency: env.WORKER_CONCURRENCY,
        pollIntervalMs: env.WORKER_POLL_INTERVAL_MS,
        deliveryConcurrency: env.WEBHOOK_CONCURRENCY,
        deliveryBatchSize: env.WEBHOOK_BATCH_SIZE,
      });
    }
    const tracker = trackRequests();
    const services = apiServices(outbound.allow, env.PUBLIC_URL ?? '');
    const app = createApp({
      db,
      keys: keys.cache,
      limits,
      services,
      pool,
      tracker,
      logger,
      publicUrl: env.PUBLIC_URL ?? '',
      cors: readCorsOrigins(env.CORS_ORIGINS),
      version: VERSION,
      trustProxy: env.TRUST_PROXY === 'true',
      signInLimits: {
        perAddress: env.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
        perAccount: env.SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
        global: env.SIGN_IN_MAX_FAILURES_GLOBAL,
      },
      ...(env.WEB_DIR ? { webDir: env.WEB_DIR } : {}),
    });
    const server = createServer(app.callback());
    answerClientErrors(server);
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(env.PORT, env.HOST, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
    if (!env.PUBLIC_URL) services.baseUrl = `http://${host}:${port}`;
    let stopping: Promise<void> | undefined;
    return {
      url: `http://${host}:${port}`,
      connectionString,
      db,
      pool,
      server,
      logger,
      stop() {
        stopping ??= (async () => {
          await closeServer(server);
          // Handlers of clients that hung up may still be running: let them finish first.
          await tracker.idle(10_000);
          await worker?.stop();
          await keys.stop();
          await closePool(countersPool);
          await closePool(pool);
          await stopDatabase();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await stopDatabase();
    throw error;
  }
}

/**
 * The keyring for secrets at rest (docs/operations.md, "Secrets at rest"): SECRETS_KEY and
 * SECRETS_KEY_PREVIOUS, or else the key file in the data folder, made on first start.
 */
async function configureSecrets(env: Env, dataDir: string, logger: Logger): Promise<void> {
  const loaded = await configureSecretKeysFrom({
    env: { SECRETS_KEY: env.SECRETS_KEY, SECRETS_KEY_PREVIOUS: env.SECRETS_KEY_PREVIOUS },
    dataDir,
    create: true,
  });
  if (loaded?.created) logger.info({ keyFile: loaded.keyFile }, 'made a key for secrets at rest');
  if (loaded?.source === 'file' && env.DATABASE_URL) {
    logger.warn(
      { keyFile: loaded.keyFile },
      'secrets in an external database are encrypted with a key kept on this machine only: set SECRETS_KEY (the same on every machine) to run more than one',
    );
  }
}

/** Stops accepting connections and waits up to 10 s for requests in flight. */
async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), 10_000);
  await closed;
  clearTimeout(timer);
}
