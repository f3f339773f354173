import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

/** A service process started by a test, as in production, to be killed or stopped. */
export interface ServerProcess {
  proc: ChildProcess;
  /** Base URL it listens on. */
  url: string;
  /** Base URL of its health and metrics listener, when that is a listener of its own. */
  opsUrl?: string;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
}

/** How long a service process may take to listen (a loaded 2-core machine takes several seconds). */
export const SERVER_START_MS = 30_000;

/**
 * The processes started here and still running: killed when the test's own process exits,
 * whether its tests passed, failed or timed out, so that none outlives the test file.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const proc of running) proc.kill('SIGKILL');
});

/**
 * A separate service process on `connectionString` (`node --import tsx main.ts`, port 0 on
 * loopback), for tests that kill one mid-request or mid-job. Resolves once it listens, with
 * the URL from its start-up log line; after SERVER_START_MS, or when it exits first, it is
 * killed and the promise rejects.
 */
export function startServerProcess(
  connectionString: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      DATABASE_URL: connectionString,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ROLE: 'api',
      OPS_PORT: '0',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(proc);
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      running.delete(proc);
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error('service process did not start'));
    }, SERVER_START_MS);
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.includes('service listening')) continue;
        clearTimeout(timer);
        proc.stdout!.off('data', onData);
        proc.stdout!.resume();
        const { url, opsUrl } = JSON.parse(line) as { url: string; opsUrl?: string };
        resolve({ proc, url, ...(opsUrl ? { opsUrl } : {}), exited });
      }
    };
    proc.stdout!.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`service process exited with ${proc.exitCode ?? proc.signalCode} before listening`));
    });
  });
}

/**
 * A separate server process running the worker on `connectionString`, as in production, for
 * tests that kill one mid-job. Resolves once it listens; rejects after SERVER_START_MS.
 */
export async function startWorkerProcess(connectionString: string): Promise<ChildProcess> {
  const { proc } = await startServerProcess(connectionString, {
    ROLE: 'all',
    WEBHOOK_TIMEOUT_MS: '60000',
    WORKER_POLL_INTERVAL_MS: '50',
  });
  return proc;
}
