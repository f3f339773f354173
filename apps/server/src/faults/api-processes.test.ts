import {
  AUTH_CHANNEL,
  createApiKey,
  FOLDER_CHANNEL,
  revokeApiKey,
  rightsOf,
  setWorkspaceRateLimit,
} from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../testing/budget.ts';
import { awayFromMinuteBoundary } from '../testing/minute-boundary.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { type ServerProcess, startServerProcess } from '../testing/worker-process.ts';

/**
 * Three API processes on one database, beside the test's own: each keeps the keys it has
 * verified in memory and counts requests in batches (docs/operations.md, "API keys in memory"
 * and "Rate limits in batches"). The rate limit must stay exact across them, and a change to
 * a key must reach all of them within a second. Each test's time limit is the work it does
 * (testing/budget.ts).
 */
let app: TestApp;
let servers: ServerProcess[] = [];

beforeAll(
  async () => {
    app = await startTestApp();
    servers = await Promise.all([1, 2, 3].map(() => startServerProcess(app.service.connectionString)));
    // Keys are kept only once a process's LISTEN is in effect: wait for all four.
    await waitFor(async () => (await authListeners()) === 4, 'four auth listeners');
  },
  budget({ processStarts: 3 }),
);

afterAll(async () => {
  for (const server of servers) server.proc.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
  await app?.stop();
});

async function authListeners(): Promise<number> {
  const result = await app.service.pool.query(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and query = $1 and state = 'idle'`,
    [`listen ${AUTH_CHANNEL}; listen ${FOLDER_CHANNEL}`],
  );
  return result.rows[0].n;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const me = (url: string, key: string) =>
  fetch(`${url}/api/v1/me`, { headers: { Authorization: `Bearer ${key}` } }).then(async (res) => {
    await res.arrayBuffer();
    return res;
  });

/** Polls each process until it refuses `key`; the milliseconds each took after `since`. */
async function untilRefusedEverywhere(key: string, since: number): Promise<number[]> {
  return Promise.all(
    servers.map(async (server) => {
      for (let i = 0; i < 200; i++) {
        if ((await me(server.url, key)).status === 401) return Date.now() - since;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`${server.url} still accepts the key`);
    }),
  );
}

describe('three API processes on one database', () => {
  it(
    'grant exactly the workspace limit among 400 parallel requests spread over them',
    async () => {
      await awayFromMinuteBoundary();
      const ws = await app.createWorkspace({ rateLimitPerMinute: 120 });
      const results = await Promise.all(
        Array.from({ length: 400 }, (_, i) => me(servers[i % 3]!.url, ws.apiKey)),
      );
      // createWorkspace spent one request of the 120 (it lists folders).
      expect(results.filter((res) => res.status === 200)).toHaveLength(119);
      expect(results.filter((res) => res.status === 429)).toHaveLength(281);
      for (const res of results.filter((r) => r.status === 429)) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
    },
    budget({ requests: 400, minuteBoundary: true }),
  );

  it(
    'refuse a revoked key at once in the process that revoked it, and within a second in every other',
    async () => {
      const ws = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
      for (let round = 0; round < 3; round++) {
        for (const url of [app.url, ...servers.map((s) => s.url)]) {
          expect((await me(url, ws.apiKey)).status).toBe(200);
        }
      }
      const since = Date.now();
      const owner = {
        workspaceId: ws.workspaceId,
        userId: ws.userId,
        userName: 'Owner',
        role: 'OWNER' as const,
        apiKeyId: null,
        scopes: rightsOf('OWNER'),
        folderIds: null,
      };
      await revokeApiKey(app.service.db, owner, await keyIdOf(ws.apiKey));
      const here = await app.api(ws.apiKey, 'GET', '/api/v1/me');
      expect(here.status).toBe(401);
      expect(here.body.error.message).toBe('This API key has been revoked');
      const delays = await untilRefusedEverywhere(ws.apiKey, since);
      expect(Math.max(...delays)).toBeLessThan(1_000);
    },
    budget({ requests: 20 + 3 * 200 }),
  );

  it(
    'keep a verified key in memory, and drop it everywhere on a notification typed by an operator',
    async () => {
      const ws = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
      const { key, secret } = await createApiKey(app.service.db, {
        workspaceId: ws.workspaceId,
        userId: ws.userId,
        name: 'kept',
      });
      for (const server of servers) expect((await me(server.url, secret)).status).toBe(200);
      // Revoked behind their backs: each process still trusts the key it verified.
      await app.service.pool.query('update api_keys set revoked_at = now() where id = $1', [key.id]);
      for (const server of servers) expect((await me(server.url, secret)).status).toBe(200);
      const since = Date.now();
      await app.service.pool.query(`notify ${AUTH_CHANNEL}`);
      const delays = await untilRefusedEverywhere(secret, since);
      expect(Math.max(...delays)).toBeLessThan(1_000);
    },
    budget({ requests: 6 + 3 * 200 }),
  );

  it(
    'count with a changed workspace limit in every process within a second',
    async () => {
      await awayFromMinuteBoundary();
      const ws = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
      for (const server of servers) expect((await me(server.url, ws.apiKey)).status).toBe(200);
      await setWorkspaceRateLimit(app.service.db, ws.workspaceId, 10);
      // A second is what a change may take to reach the other processes.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => me(servers[i % 3]!.url, ws.apiKey)),
      );
      for (const res of results) expect(res.headers.get('ratelimit-limit')).toBe('10');
      // Four of the ten were spent: one by createWorkspace, three above.
      expect(results.filter((res) => res.status === 200)).toHaveLength(6);
      expect(results.filter((res) => res.status === 429)).toHaveLength(24);
    },
    budget({ requests: 33, minuteBoundary: true, waitsMs: 1_000 }),
  );
});

describe('three API processes on one database, and folders', () => {
  it(
    'see a field added through one of them within a second in every other',
    async () => {
      const ws = await app.createWorkspace({ rateLimitPerMinute: 1_000_000 });
      const people = (await app.api(ws.apiKey, 'GET', '/api/v1/folders')).body.data[0];
      const list = (url: string) =>
        fetch(`${url}/api/v1/records?folderId=${people.id}&filter[data.region]=EU`, {
          headers: { Authorization: `Bearer ${ws.apiKey}` },
        }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        });
      // Each process reads the folder, without the field, and keeps it.
      for (const server of servers) expect(await list(server.url)).toBe(400);
      const since = Date.now();
      const added = await app.api(ws.apiKey, 'POST', `/api/v1/folders/${people.id}/fields`, {
        key: 'region',
        label: 'Region',
        type: 'SELECT',
        options: ['EU', 'US'],
      });
      expect(added.status).toBe(201);
      const delays = await Promise.all(
        servers.map(async (server) => {
          for (let i = 0; i < 200; i++) {
            if ((await list(server.url)) === 200) return Date.now() - since;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          throw new Error(`${server.url} still lists with the folder as it was`);
        }),
      );
      expect(Math.max(...delays)).toBeLessThan(1_000);
    },
    budget({ requests: 5 + 3 * 200 }),
  );
});

async function keyIdOf(secret: string): Promise<string> {
  const result = await app.service.pool.query(
    'select id from api_keys where secret_hash = encode(sha256(convert_to($1, $2)), $3)',
    [secret, 'UTF8', 'hex'],
  );
  return result.rows[0].id;
}
