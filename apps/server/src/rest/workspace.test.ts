import type { AppRouter } from '@crm/api';
import { addMember, allScopes, createApiKey } from '@crm/domain';
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

const INSTANT_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function userOf(ws: TestWorkspace) {
  const rows = await app.service.db.execute<{ name: string; email: string }>(
    sql`select name, email from users where id = ${ws.userId}`,
  );
  return rows.rows[0]!;
}

describe('GET /api/v1/me', () => {
  it("shows the key's workspace, user and key", async () => {
    const ws = await app.createWorkspace({ name: 'Analytical Engines', rateLimitPerMinute: 75 });
    const res = await app.api(ws.apiKey, 'GET', '/api/v1/me');
    expect(res.status, res.text).toBe(200);
    const user = await userOf(ws);
    expect(res.body.data).toEqual({
      workspace: {
        id: ws.workspaceId,
        name: 'Analytical Engines',
        defaultCurrency: 'USD',
        rateLimitPerMinute: 75,
      },
      user: { id: ws.userId, name: user.name, email: user.email, role: 'OWNER' },
      key: {
        id: expect.stringMatching(/^key_/),
        name: 'test',
        prefix: ws.apiKey.slice(0, res.body.data.key.prefix.length),
        scopes: ['read', 'write'],
        folderIds: null,
        expiresAt: null,
      },
      // What the key may do: every scope, as its maker is the owner.
      scopes: [...allScopes],
      rateLimit: { limit: 75, remaining: expect.any(Number), resetSeconds: expect.any(Number) },
    });
    expect(res.body.data.key.prefix.length).toBeGreaterThanOrEqual(8);
  });

  it('shows the scopes and expiry of the key that made the request', async () => {
    const ws = await app.createWorkspace();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const { key, secret } = await createApiKey(app.service.db, {
      workspaceId: ws.workspaceId,
      userId: ws.userId,
      name: 'Read-only sync',
      scopes: ['read'],
      expiresAt,
    });
    const res = await app.api(secret, 'GET', '/api/v1/me');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.key).toEqual({
      id: key.id,
      name: 'Read-only sync',
      prefix: key.prefix,
      scopes: ['read'],
      folderIds: null,
      expiresAt,
    });
    expect(res.body.data.scopes.every((scope: string) => scope.endsWith(':read'))).toBe(true);
  });

  it('reports a rateLimit that matches the RateLimit-* headers and drops by one per request', async () => {
    const ws = await app.createWorkspace({ rateLimitPerMinute: 50 });
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app.api(ws.apiKey, 'GET', '/api/v1/me');
      expect(res.status).toBe(200);
      const { rateLimit } = res.body.data;
      expect(rateLimit.limit).toBe(50);
      expect(rateLimit.remaining).toBe(Number(res.headers.get('ratelimit-remaining')));
      expect(rateLimit.resetSeconds).toBeGreaterThanOrEqual(1);
      seen.push(rateLimit.remaining);
    }
    expect(seen).toEqual([seen[0], seen[0]! - 1, seen[0]! - 2, seen[0]! - 3]);
    // createWorkspace made one request (the folder lookup); each /me is counted before it answers.
    expect(seen[0]).toBeLessThanOrEqual(48);
  });

  it('refuses unknown query parameters', async () => {
    const ws = await app.createWorkspace();
    const res = await app.api(ws.apiKey, 'GET', '/api/v1/me?verbose=true');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('GET /api/v1/members', () => {
  it('lists the owner, then later members, oldest first, and only members of this workspace', async () => {
    const ws = await app.createWorkspace();
    const other = await app.createWorkspace();
    const stranger = await app.createWorkspace();
    const first = await app.api(ws.apiKey, 'GET', '/api/v1/members');
    expect(first.status, first.text).toBe(200);
    const owner = await userOf(ws);
    expect(first.body).toEqual({
      data: [
        {
          id: ws.userId,
          name: owner.name,
          email: owner.email,
          role: 'OWNER',
          createdAt: expect.stringMatching(INSTANT_MS),
        },
      ],
      meta: { page: 1, pageSize: 50, hasMore: false, nextCursor: null, nextUrl: null },
    });

    await app.service.db.transaction((tx) => addMember(tx, ws.workspaceId, other.userId, 'MEMBER'));
    const all = await app.api(ws.apiKey, 'GET', '/api/v1/members');
    expect(all.body.data.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [ws.userId, 'OWNER'],
      [other.userId, 'MEMBER'],
    ]);
    const page2 = await app.api(ws.apiKey, 'GET', '/api/v1/members?pageSize=1&page=2');
    expect(page2.body.data.map((m: { id: string }) => m.id)).toEqual([other.userId]);
    expect(page2.body.meta).toMatchObject({ page: 2, pageSize: 1, hasMore: false });
    const cursor = (await app.api(ws.apiKey, 'GET', '/api/v1/members?pageSize=1')).body.meta.nextCursor;
    const next = await app.api(
      ws.apiKey,
      'GET',
      `/api/v1/members?pageSize=1&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(next.body.data.map((m: { id: string }) => m.id)).toEqual([other.userId]);

    const theirs = await app.api(stranger.apiKey, 'GET', '/api/v1/members');
    expect(theirs.body.data.map((m: { id: string }) => m.id)).toEqual([stranger.userId]);
  });
});

describe('workspace over tRPC', () => {
  it('answers workspace.me like REST, counting each call against the same limit', async () => {
    const ws = await app.createWorkspace();
    const trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) }),
      ],
    });
    const viaTrpc = await trpc.workspace.me.query({});
    const viaRest = await app.api(ws.apiKey, 'GET', '/api/v1/me');
    const { rateLimit: trpcLimit, ...trpcRest } = viaTrpc.data;
    const { rateLimit: restLimit, ...restRest } = viaRest.body.data;
    expect(trpcRest).toEqual(restRest);
    expect(restLimit.remaining).toBe(trpcLimit.remaining - 1);
    const members = await trpc.workspace.members.query({});
    expect(members.data.map((m) => m.id)).toEqual([ws.userId]);
  });
});
