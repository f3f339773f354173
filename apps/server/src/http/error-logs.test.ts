import { createTestDatabase, type TestDatabase } from '@crm/db/testing';
import { createApiKey, createWorkspace, setPassword } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { type Service, startService } from '../service.ts';

/**
 * docs/operations.md: a 5xx logs its cause with the requestId the client received. Each
 * surface is made to fail inside by renaming the table its work needs.
 */

let database: TestDatabase;
let service: Service;
const lines: Record<string, unknown>[] = [];
let apiKey: string;
let email: string;
const PASSWORD = 'a long enough password';

beforeAll(async () => {
  database = await createTestDatabase();
  const env = readEnv({
    DATABASE_URL: database.connectionString,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    ROLE: 'api',
    OPS_PORT: '0',
    DATABASE_POOL_SIZE: '4',
    ...(process.env.SECRETS_KEY ? { SECRETS_KEY: process.env.SECRETS_KEY } : {}),
  });
  const logger = createLogger('error', { write: (line: string) => void lines.push(JSON.parse(line)) });
  service = await startService(env, logger);
  email = `owner.${Date.now()}@example.com`;
  const { workspaceId, userId } = await createWorkspace(service.db, {
    name: 'Logs',
    owner: { email, name: 'Owner' },
  });
  await setPassword(service.db, email, PASSWORD);
  apiKey = (await createApiKey(service.db, { workspaceId, userId, name: 'test' })).secret;
});
afterAll(async () => {
  await service?.stop();
  await database?.drop();
});

async function send(method: string, path: string, body?: unknown, key: string | null = apiKey) {
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, requestId: res.headers.get('x-request-id')!, text: await res.text() };
}

/** The error lines logged for one request. */
const linesOf = (requestId: string) =>
  lines.filter((line) => line.requestId === requestId && line.level === 'error');

async function withTableAway<T>(table: string, work: () => Promise<T>): Promise<T> {
  await service.pool.query(`alter table ${table} rename to ${table}_away`);
  try {
    return await work();
  } finally {
    await service.pool.query(`alter table ${table}_away rename to ${table}`);
  }
}

function expectLoggedFailure(res: { status: number; requestId: string; text: string }) {
  expect(res.status, res.text).toBeGreaterThanOrEqual(500);
  expect(res.text).toContain(res.requestId);
  expect(res.text).not.toMatch(/tasks_away|relation|select |insert /i);
  const logged = linesOf(res.requestId);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ msg: 'request failed', code: 'INTERNAL' });
  // The cause is there for the operator: PostgreSQL's complaint, at the end of the chain.
  expect(JSON.stringify(logged[0]!.err)).toMatch(/does not exist/);
}

describe('every 5xx logs its cause with the request id', () => {
  it('on /api/v1, when the procedure fails inside the adapter', async () => {
    await withTableAway('tasks', async () => {
      expectLoggedFailure(await send('GET', '/api/v1/tasks'));
      expectLoggedFailure(await send('POST', '/api/v1/tasks', { title: 'x' }));
    });
  });

  it('on /trpc', async () => {
    await withTableAway('tasks', async () => {
      expectLoggedFailure(await send('GET', `/trpc/tasks.list?input=${encodeURIComponent('{}')}`));
    });
  });

  it('on a trigger URL', async () => {
    const created = await send('POST', '/api/v1/workflows', {
      name: 'Logs',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'ADD_COMMENT', text: 'x' }],
    });
    expect(created.status, created.text).toBe(201);
    const url = new URL(JSON.parse(created.text).data.trigger.url);
    await withTableAway('workflow_runs', async () => {
      expectLoggedFailure(await send('POST', url.pathname, { name: 'Ada' }, null));
    });
  });

  it('on the sign-in route', async () => {
    await withTableAway('sessions', async () => {
      expectLoggedFailure(await send('POST', '/auth/sign-in', { email, password: PASSWORD }, null));
    });
  });

  it('on the OAuth endpoints', async () => {
    await withTableAway('oauth_models', async () => {
      const res = await send(
        'POST',
        '/oauth/register',
        { client_name: 'Logs', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' },
        null,
      );
      expect(res.status, res.text).toBe(500);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'server_error' });
      expect(res.text).not.toMatch(/oauth_models|relation/i);
      const logged = linesOf(res.requestId);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ msg: 'request failed', code: 'INTERNAL' });
      expect(JSON.stringify(logged[0]!.err)).toMatch(/does not exist/);
    });
  });

  it('and a 4xx logs no error line', async () => {
    const res = await send('GET', '/api/v1/records?constructor=');
    expect(res.status).toBe(400);
    expect(linesOf(res.requestId)).toEqual([]);
  });
});
