import { createTestDatabase } from '@crm/db/testing';
import { createApiKey, createWorkspace } from '@crm/domain';
import { readEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { type Service, startService } from '../service.ts';

export interface TestWorkspace {
  workspaceId: string;
  userId: string;
  apiKey: string;
  /** The default "People" folder. */
  folderId: string;
}

export interface TestApp {
  service: Service;
  url: string;
  /** A new workspace with an owner and a read/write key. */
  createWorkspace(options?: { rateLimitPerMinute?: number; name?: string }): Promise<TestWorkspace>;
  /** fetch against the app with a bearer key; JSON bodies are encoded. */
  api(
    key: string | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
  text: string;
}

/**
 * The real app on port 0 over a fresh clone of the migrated template database. The worker
 * is off unless asked for, so tests decide when jobs run.
 */
export async function startTestApp(
  options: { worker?: boolean; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const env = readEnv({
    DATABASE_URL: database.connectionString,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ROLE: options.worker ? 'all' : 'api',
    OPS_PORT: '0',
    DATABASE_POOL_SIZE: '10',
    // Tests receive webhooks on loopback servers of their own.
    WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    // The fixed test key (tooling/vitest/setup-env.ts): no key file in the data folder.
    ...(process.env.SECRETS_KEY ? { SECRETS_KEY: process.env.SECRETS_KEY } : {}),
    ...options.env,
  });
  const service = await startService(env, createLogger(env.LOG_LEVEL));
  let counter = 0;
  return {
    service,
    url: service.url,
    async createWorkspace(opts = {}) {
      counter++;
      const { workspaceId, userId } = await createWorkspace(service.db, {
        name: opts.name ?? `Workspace ${counter}`,
        owner: { email: `owner${counter}.${Date.now()}@example.com`, name: `Owner ${counter}` },
        ...(opts.rateLimitPerMinute ? { rateLimitPerMinute: opts.rateLimitPerMinute } : {}),
      });
      const { secret } = await createApiKey(service.db, { workspaceId, userId, name: 'test' });
      const folders = await fetch(`${service.url}/api/v1/folders`, {
        headers: { Authorization: `Bearer ${secret}` },
      });
      const folderId = ((await folders.json()) as { data: { id: string }[] }).data[0]!.id;
      return { workspaceId, userId, apiKey: secret, folderId };
    },
    async api(key, method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (key) (init.headers as Record<string, string>).Authorization = `Bearer ${key}`;
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
      }
      const res = await fetch(`${service.url}${path}`, init);
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async stop() {
      await service.stop();
      await database.drop();
    },
  };
}
