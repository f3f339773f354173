import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const main = join(dirname(fileURLToPath(import.meta.url)), 'main.ts');

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe('the server process', () => {
  // Started as `pnpm start` does: one Node process with the tsx loader, so signals reach it.
  it('logs JSON lines, serves requests and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: {
        ...process.env,
        DATABASE_URL: database.connectionString,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    const listening = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${buffer}`)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
          const line = JSON.parse(buffer.slice(0, i)) as Record<string, unknown>;
          buffer = buffer.slice(i + 1);
          lines.push(line);
          if (line.msg === 'service listening') {
            clearTimeout(timer);
            resolve(line.url as string);
          }
        }
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await listening;
      const res = await fetch(`${url}/api/v1/records`, { headers: { 'X-Request-Id': 'log-me' } });
      expect(res.status).toBe(401);
      // The version is the package's, as changesets writes it, not a constant of the code.
      const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
      const document = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as {
        info: { version: string };
      };
      expect(document.info.version).toBe(manifest.version);
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
      expect(code).toBe(0);
      const request = lines.find((l) => l.msg === 'request' && l.requestId === 'log-me');
      expect(request).toMatchObject({
        method: 'GET',
        route: '/api/v1/records',
        path: '/api/v1/records',
        status: 401,
        level: 'info',
      });
      expect(lines.some((l) => l.msg === 'shutting down')).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
