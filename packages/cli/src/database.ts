import {
  closePool,
  createDatabase,
  createPool,
  type Database,
  resolveDataDir,
  runMigrations,
  startEmbeddedPostgres,
} from '@crm/db';
import { configureSecretKeysFrom } from '@crm/domain';
import pg from 'pg';
import { cliEnv } from './env.ts';

export interface CliDatabase {
  db: Database;
  close(): Promise<void>;
}

/**
 * The database the service uses: DATABASE_URL, else the embedded server in DATA_DIR. When
 * the service is running its embedded server is reused; otherwise it is started for the
 * command and stopped after it.
 */
export async function openDatabase(env: NodeJS.ProcessEnv = cliEnv): Promise<CliDatabase> {
  // The service's keys for secrets at rest: SECRETS_KEY, else its key file. The CLI never
  // makes a key: one the service does not have would seal values it cannot open.
  await configureSecretKeysFrom({ env, dataDir: resolveDataDir(env.DATA_DIR, env), create: false });
  let url = env.DATABASE_URL;
  let stopEmbedded = async () => {};
  if (!url) {
    const port = Number(env.EMBEDDED_PG_PORT ?? 54329);
    const running = `postgres://postgres:postgres@127.0.0.1:${port}/crm`;
    if (await reachable(running)) {
      url = running;
    } else {
      const embedded = await startEmbeddedPostgres({
        dataDir: resolveDataDir(env.DATA_DIR, env),
        port,
        portSetting: 'EMBEDDED_PG_PORT',
      });
      url = embedded.connectionString;
      stopEmbedded = embedded.stop;
    }
  }
  await runMigrations(url);
  const pool = createPool({ connectionString: url, max: 2, applicationName: 'crm-cli' });
  return {
    db: createDatabase(pool),
    async close() {
      await closePool(pool);
      await stopEmbedded();
    },
  };
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  // A connection lost before end() must not become an unhandled 'error' event.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
