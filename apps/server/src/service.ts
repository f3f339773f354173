import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import {
  closePool,
  createDatabase,
  createPool,
  type Database,
  isSharded,
  resolveDataDir,
  runMigrations,
  startEmbeddedPostgres,
} from '@crm/db';
import { configureSecretKeysFrom, missing, RateLimitBatcher, sealStoredSecrets } from '@crm/domain';
import type pg from 'pg';
import { createApp } from './app.ts';
import { type Env, type Role, roleOf } from './env.ts';
import { startCaches } from './http/caches.ts';
import { answerClientErrors } from './http/client-error.ts';
import { trackRequests } from './http/in-flight.ts';
import { listenOn } from './http/listen.ts';
import { createLogger, type Logger } from './logger.ts';
import { Metrics } from './ops/metrics.ts';
import { startOpsServer } from './ops/ops-server.ts';
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
  role: Role;
  /**
   * Base URL of the API, e.g. http://127.0.0.1:3000; for a worker, which serves no API, that
   * of its operations listener ('' when OPS_PORT is off).
   */
  url: string;
  /** Base URL of /metrics, /healthz and /readyz; undefined when OPS_PORT is off. */
  opsUrl?: string;
  connectionString: string;
  db: Database;
  pool: pg.Pool;
  /** The API's HTTP server; undefined for a worker. */
  server?: Server;
  metrics: Metrics;
  logger: Logger;
  stop(): Promise<void>;
}

/** How long a shutdown waits for requests in flight and for handlers still running. */
export const DRAIN_MS = 10_000;

/**
 * Starts everything the process's role needs (docs/operations.md, "Roles"): the database
 * (embedded unless DATABASE_URL is set) and its migrations; for `all` and `api` the HTTP API;
 * for `all` and `worker` the background worker; and the operations listener unless it is off.
 */
export async function startService(env: Env, logger: Logger = createLogger(env.LOG_LEVEL)): Promise<Service> {
  const role = roleOf(env);
  const dataDir = resolveDataDir(env.DATA_DIR);
  await configureSecrets(env, dataDir, logger);
  let stopDatabase = async () => {};
  let connectionString = env.DATABASE_URL;
  if (!connectionString) {
    const embedded = await startEmbeddedPostgres({
      dataDir,
      port: env.EMBEDDED_PG_PORT,
      portSetting: 'EMBEDDED_PG_PORT',
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
  const closing: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closing.reverse()) await close();
    closing.length = 0;
  };
  try {
    await runMigrations(connectionString);
    const pool = createPool({ connectionString, max: env.DATABASE_POOL_SIZE });
    closing.push(() => closePool(pool));
    const db = createDatabase(pool);
    // Asked once, before any request: a write that asked first, inside its transaction, would
    // wait for a free connection of the pool it holds one of, and a burst of such writes
    // could hold them all (docs/scaling.md, "Which queries reach one shard").
    if (await isSharded(pool)) logger.info('the database is sharded by workspace (Citus)');
    const metrics = new Metrics();
    metrics.watchPool('main', pool);
    // Secrets stored before encryption are sealed once, by whichever process gets there first.
    const sealed = await sealStoredSecrets(db);
    if (sealed.webhooks + sealed.workflows > 0) logger.info(sealed, 'encrypted secrets stored in plaintext');
    const outbound = outboundSettings(env);

    let worker: Worker | undefined;
    if (role !== 'api') {
      metrics.watchQueues(pool);
      worker = await startWorker({
        pool,
        db,
        connectionString,
        logger,
        outbound,
        workflows: {
          http: outbound,
          retry: { scale: env.WORKFLOW_RETRY_SCALE, jitter: 0.2 },
          observer: metrics.runs,
        },
        concurrency: env.WORKER_CONCURRENCY,
        pollIntervalMs: env.WORKER_POLL_INTERVAL_MS,
        deliveryConcurrency: env.WEBHOOK_CONCURRENCY,
        deliveryBatchSize: env.WEBHOOK_BATCH_SIZE,
        auditRetentionDays: env.AUDIT_RETENTION_DAYS,
        importChunksInFlight: env.IMPORT_CHUNKS_IN_FLIGHT,
        metrics,
      });
      closing.push(() => (worker ?? missing('worker')).stop());
    }

    const api =
      role === 'worker'
        ? undefined
        : await startApi(env, { db, pool, connectionString, logger, outbound, metrics });
    if (api) closing.push(api.stop);

    const ops =
      env.OPS_PORT === 'off'
        ? undefined
        : await startOpsServer({ host: env.OPS_HOST, port: env.OPS_PORT, metrics, pool, role });
    if (ops) closing.push(ops.close);

    let stopping: Promise<void> | undefined;
    return {
      role,
      url: api?.url ?? ops?.url ?? '',
      ...(ops ? { opsUrl: ops.url } : {}),
      connectionString,
      db,
      pool,
      ...(api ? { server: api.server } : {}),
      metrics,
      logger,
      stop() {
        stopping ??= (async () => {
          // The API drains first (it may still queue work for the worker), then the worker,
          // the pools and the database.
          await api?.drain();
          await closeAll();
          await stopDatabase();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await closeAll().catch(() => undefined);
    await stopDatabase();
    throw error;
  }
}

interface ApiParts {
  db: Database;
  pool: pg.Pool;
  connectionString: string;
  logger: Logger;
  outbound: ReturnType<typeof outboundSettings>;
  metrics: Metrics;
}

/** The HTTP API: its app, key and folder caches, rate-limit counting and listener. */
async function startApi(env: Env, parts: ApiParts) {
  const { db, pool, connectionString, logger, metrics } = parts;
  // Rate-limit counters commit without waiting for the disk: every request of a workspace
  // updates the same row, and a crash may only forget the last moment's counts.
  const countersPool = createPool({
    connectionString,
    max: Math.max(2, Math.ceil(env.DATABASE_POOL_SIZE / 4)),
    applicationName: 'crm-counters',
    synchronousCommit: false,
  });
  metrics.watchPool('counters', countersPool);
  const countersDb = createDatabase(countersPool);
  const caches = startCaches({ db, pool, logger });
  const limits = new RateLimitBatcher(countersDb);
  const tracker = trackRequests();
  const services = apiServices(parts.outbound.allow, env.PUBLIC_URL ?? '');
  const app = createApp({
    db,
    keys: caches.keys,
    limits,
    services,
    pool,
    tracker,
    logger,
    metrics,
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
  const handle = app.callback();
  let draining = false;
  const server = createServer((req, res) => {
    // Once the shutdown began, every answer closes its connection, so none lingers idle.
    if (draining) res.setHeader('Connection', 'close');
    void handle(req, res);
  });
  answerClientErrors(server);
  server.keepAliveTimeout = 65_000;
  const url = await listenOn(server, env.PORT, env.HOST, 'PORT');
  if (!env.PUBLIC_URL) services.baseUrl = url;
  return {
    url,
    server,
    /** Stops accepting, closes idle connections at once and waits for requests in flight. */
    async drain() {
      draining = true;
      // One drain time for both waits, so a shutdown takes at most DRAIN_MS.
      const deadline = performance.now() + DRAIN_MS;
      await closeServer(server, DRAIN_MS);
      // Handlers of clients that hung up may still be running: let them finish first.
      await tracker.idle(Math.max(0, deadline - performance.now()));
    },
    async stop() {
      await caches.stop();
      // Leased rate-limit tokens not used are given back before the pool closes.
      await limits.close();
      await closePool(countersPool);
    },
  };
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

/**
 * Stops accepting connections, closes the idle ones at once and waits up to `waitMs` for
 * requests in flight; each of those answers with `Connection: close` and its connection ends.
 */
async function closeServer(server: Server, waitMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A keep-alive connection whose request was in flight turns idle when it is answered.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const timer = setTimeout(() => server.closeAllConnections(), waitMs);
  await closed;
  clearInterval(sweep);
  clearTimeout(timer);
}
