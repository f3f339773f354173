import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteBoundary } from '../testing/minute-boundary.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

describe('workspace rate limit', () => {
  it('answers the 121st request in a minute with 429 and Retry-After, with RateLimit headers throughout', async () => {
    await awayFromMinuteBoundary(10_000);
    const ws = await app.createWorkspace();
    // createWorkspace already spent one request (it lists folders).
    for (let i = 2; i <= 120; i++) {
      const res = await app.api(ws.apiKey, 'GET', '/api/v1/folders');
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('120');
      expect(Number(res.headers.get('ratelimit-remaining'))).toBe(120 - i);
    }
    const refused = await app.api(ws.apiKey, 'GET', '/api/v1/folders');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(120);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    // The tRPC surface shares the workspace's budget.
    const viaTrpc = await fetch(`${app.url}/trpc/folders.list?input=${encodeURIComponent('{}')}`, {
      headers: { Authorization: `Bearer ${ws.apiKey}` },
    });
    expect(viaTrpc.status).toBe(429);
    expect(viaTrpc.headers.get('retry-after')).toBe(retryAfter);
  });

  it('writes the counters through their own asynchronous-commit connections', async () => {
    const ws = await app.createWorkspace();
    await app.api(ws.apiKey, 'GET', '/api/v1/folders');
    const result = await app.service.pool.query(
      `select 1 from pg_stat_activity where application_name = 'crm-counters' and datname = current_database()`,
    );
    expect(result.rows.length).toBeGreaterThan(0);
  });

  it('counts each workspace on its own and honours a per-workspace limit', async () => {
    await awayFromMinuteBoundary(10_000);
    const small = await app.createWorkspace({ rateLimitPerMinute: 3 });
    const other = await app.createWorkspace();
    expect((await app.api(small.apiKey, 'GET', '/api/v1/folders')).status).toBe(200);
    expect((await app.api(small.apiKey, 'GET', '/api/v1/folders')).status).toBe(200);
    const refused = await app.api(small.apiKey, 'GET', '/api/v1/folders');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-limit')).toBe('3');
    expect((await app.api(other.apiKey, 'GET', '/api/v1/folders')).status).toBe(200);
  });

  it('lets concurrent requests through only up to the limit', async () => {
    await awayFromMinuteBoundary(10_000);
    const ws = await app.createWorkspace({ rateLimitPerMinute: 20 });
    const results = await Promise.all(
      Array.from({ length: 40 }, () => app.api(ws.apiKey, 'GET', '/api/v1/folders')),
    );
    const ok = results.filter((r) => r.status === 200).length;
    // One request went to createWorkspace's folder lookup.
    expect(ok).toBe(19);
    expect(results.filter((r) => r.status === 429).length).toBe(21);
  });
});
