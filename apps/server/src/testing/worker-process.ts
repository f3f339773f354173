import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

/**
 * A separate server process running the worker on `connectionString`, as in production, for
 * tests that kill one mid-job. Resolves once it listens; rejects after 30 s.
 */
export function startWorkerProcess(connectionString: string): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      DATABASE_URL: connectionString,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RUN_WORKER: 'true',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      WEBHOOK_TIMEOUT_MS: '60000',
      WORKER_POLL_INTERVAL_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker process did not start')), 30_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('service listening')) {
        clearTimeout(timer);
        resolve(proc);
      }
    });
  });
}
