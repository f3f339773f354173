import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PARENT_GUARD, spawnTracked } from '../../../../tooling/vitest/child-processes.ts';

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
  /**
   * Its last log lines of level warn and above (at most WARNINGS_KEPT), to explain a failure:
   * a test that fails on what a process did shows them.
   */
  warnings: string[];
}

const WARNINGS_KEPT = 50;

/**
 * How long a service process may take to listen. Measured on two cores shared with other
 * CPU-heavy work: 7 to 13 s alone, and more than 30 s while the test's own clients loaded the
 * machine too (the fleets' rolling restart); hence a minute. Processes started together share
 * the machine, so each start's limit grows by as much again for every other start under way
 * (five at once took 21 to 24 s each where one took 7 to 13).
 */
export const SERVER_START_MS = 60_000;

/** The starts under way, each with how to give it SERVER_START_MS more. */
const starting = new Set<() => void>();

/** Calls `expired` once the start's limit has passed (see SERVER_START_MS); `done()` ends the watch. */
function watchStart(expired: () => void): { done(): void } {
  let deadline = performance.now() + SERVER_START_MS * (1 + starting.size);
  for (const extend of starting) extend();
  const extend = () => {
    deadline += SERVER_START_MS;
  };
  starting.add(extend);
  const timer = setInterval(() => {
    if (performance.now() < deadline) return;
    done();
    expired();
  }, 250);
  const done = () => {
    clearInterval(timer);
    starting.delete(extend);
  };
  return { done };
}

/**
 * A separate service process on `connectionString` (`node --import tsx main.ts`, port 0 on
 * loopback), for tests that kill one mid-request or mid-job. Resolves once it listens, with
 * the URL from its start-up log line; past its limit (SERVER_START_MS), or when it exits
 * first, it is killed and the promise rejects. It is tracked (child-processes.ts): it never outlives the
 * test file, nor a test that fails while it was started; its stderr is passed on through a
 * pipe of this process, so it never holds Vitest's own output open.
 */
export function startServerProcess(
  connectionString: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const role = env.ROLE ?? 'api';
  const proc = spawnTracked(
    process.execPath,
    ['--import', 'tsx', '--import', PARENT_GUARD, main],
    {
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
      stdio: ['ignore', 'pipe', 'pipe'],
    },
    `service process ROLE=${role}`,
  );
  proc.stderr!.pipe(process.stderr, { end: false });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const watch = watchStart(() => {
      proc.kill('SIGKILL');
      reject(new Error('service process did not start in time'));
    });
    const warnings: string[] = [];
    let pending = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (/"level":"(warn|error|fatal)"/.test(line)) {
          warnings.push(line.slice(0, 1_000));
          if (warnings.length > WARNINGS_KEPT) warnings.shift();
        }
        if (!line.includes('service listening')) continue;
        watch.done();
        const { url, opsUrl } = JSON.parse(line) as { url: string; opsUrl?: string };
        resolve({ proc, url, ...(opsUrl ? { opsUrl } : {}), exited, warnings });
      }
    });
    void exited.then(() => {
      watch.done();
      reject(new Error(`service process exited with ${proc.exitCode ?? proc.signalCode} before listening`));
    });
  });
}

/**
 * A separate server process running the worker on `connectionString`, as in production, for
 * tests that kill one mid-job. Resolves once it listens; rejects past its limit (SERVER_START_MS).
 */
export async function startWorkerProcess(connectionString: string): Promise<ChildProcess> {
  const { proc } = await startServerProcess(connectionString, {
    ROLE: 'all',
    WEBHOOK_TIMEOUT_MS: '60000',
    WORKER_POLL_INTERVAL_MS: '50',
  });
  return proc;
}
