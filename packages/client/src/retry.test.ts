import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from './client.ts';
import { retryAfterMs, withRetry } from './retry.ts';

interface Sent {
  method: string;
  url: string;
  key: string | null;
  body: string;
}

/** A fetch answering from a script of responses (or errors to throw), recording what was sent. */
function scriptedFetch(...script: (Response | Error)[]) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({
      method: request.method,
      url: request.url,
      key: request.headers.get('Idempotency-Key'),
      body: await request.text(),
    });
    const next = script.shift();
    if (!next) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const rateLimited = (retryAfter: string) =>
  json(
    429,
    { error: { code: 'RATE_LIMITED', message: 'slow down', requestId: 'req_1' } },
    { 'Retry-After': retryAfter },
  );

const created = { data: { id: 'rec_1', title: 'Ada' } };

afterEach(() => {
  vi.useRealTimers();
});

describe('withRetry', () => {
  it('waits Retry-After after a 429 and retries the POST with the same body and one Idempotency-Key', async () => {
    vi.useFakeTimers();
    const { fetch, sent } = scriptedFetch(rateLimited('2'), rateLimited('1'), json(201, created));
    const call = withRetry(fetch)('https://crm.test/api/v1/records', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ folderId: 'fld_1', title: 'Ada' }),
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    const response = await call;
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual(created);
    expect(sent).toHaveLength(3);
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(sent.map((s) => s.key))).toEqual(new Set([sent[0]!.key]));
    expect(new Set(sent.map((s) => s.body))).toEqual(new Set(['{"folderId":"fld_1","title":"Ada"}']));
  });

  it('gives each logical call its own key, and keeps a key the caller set', async () => {
    const { fetch, sent } = scriptedFetch(json(201, created), json(201, created), json(200, created));
    const send = withRetry(fetch);
    await send('https://crm.test/api/v1/records', { method: 'POST', body: '{}' });
    await send('https://crm.test/api/v1/records', { method: 'POST', body: '{}' });
    await send('https://crm.test/api/v1/records/rec_1', {
      method: 'PATCH',
      body: '{}',
      headers: { 'Idempotency-Key': 'mine' },
    });
    expect(sent[0]!.key).not.toBe(sent[1]!.key);
    expect(sent[2]!.key).toBe('mine');
  });

  it('sends no key on GET or DELETE', async () => {
    const { fetch, sent } = scriptedFetch(json(200, created), json(200, created));
    const send = withRetry(fetch);
    await send('https://crm.test/api/v1/records/rec_1');
    await send('https://crm.test/api/v1/records/rec_1', { method: 'DELETE' });
    expect(sent.map((s) => s.key)).toEqual([null, null]);
  });

  it('caps the wait at maxDelayMs and stops after maxAttempts, answering the last response', async () => {
    const waits: number[] = [];
    const { fetch, sent } = scriptedFetch(rateLimited('3600'), rateLimited('3600'), rateLimited('3600'));
    const response = await withRetry(fetch, {
      maxAttempts: 3,
      maxDelayMs: 5000,
      sleep: async (ms) => {
        waits.push(ms);
      },
    })('https://crm.test/api/v1/records', { method: 'POST', body: '{}' });
    expect(response.status).toBe(429);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect(waits).toEqual([5000, 5000]);
    expect(sent).toHaveLength(3);
  });

  it('retries network errors and 503 with a doubling backoff; a 409 after a lost answer waits for the first try', async () => {
    const waits: number[] = [];
    const { fetch, sent } = scriptedFetch(
      new TypeError('fetch failed'),
      json(409, { error: { code: 'CONFLICT', message: 'in progress', requestId: 'r' } }),
      json(503, { error: { code: 'UNAVAILABLE', message: 'down', requestId: 'r' } }),
      json(201, created),
    );
    const response = await withRetry(fetch, {
      baseDelayMs: 100,
      sleep: async (ms) => {
        waits.push(ms);
      },
    })('https://crm.test/api/v1/records', { method: 'POST', body: '{"title":"Ada"}' });
    expect(response.status).toBe(201);
    expect(waits).toEqual([100, 200, 400]);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
  });

  it('does not retry a 409 of a first try, other 4xx or 500, and throws the last network error', async () => {
    const sleep = async () => {};
    for (const status of [400, 409, 422, 500]) {
      const { fetch, sent } = scriptedFetch(json(status, {}), json(201, created));
      const response = await withRetry(fetch, { sleep })('https://crm.test/x', {
        method: 'POST',
        body: '{}',
      });
      expect(response.status).toBe(status);
      expect(sent).toHaveLength(1);
    }
    const { fetch, sent } = scriptedFetch(new TypeError('one'), new TypeError('two'));
    await expect(withRetry(fetch, { maxAttempts: 2, sleep })('https://crm.test/x')).rejects.toThrow('two');
    expect(sent).toHaveLength(2);
  });

  it('does not retry an aborted request', async () => {
    const controller = new AbortController();
    controller.abort();
    const { fetch, sent } = scriptedFetch(new DOMException('aborted', 'AbortError'), json(200, created));
    await expect(withRetry(fetch)('https://crm.test/x', { signal: controller.signal })).rejects.toThrow(
      'aborted',
    );
    expect(sent).toHaveLength(1);
  });
});

describe('retryAfterMs', () => {
  it('reads whole seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

describe('createClient', () => {
  it('sends the Bearer key to <baseUrl>/api/v1 and retries through the typed client', async () => {
    const { fetch, sent } = scriptedFetch(rateLimited('1'), json(201, created));
    const headers: (string | null)[] = [];
    const client = createClient({
      baseUrl: 'https://crm.test/',
      apiKey: 'crm_secret',
      fetch: (input, init) => {
        headers.push((input as Request).headers.get('Authorization'));
        return fetch(input, init);
      },
      retry: { sleep: async () => {} },
    });
    const { data, response } = await client.POST('/records', { body: { folderId: 'fld_1', title: 'Ada' } });
    expect(response.status).toBe(201);
    expect(data?.data.id).toBe('rec_1');
    expect(sent.map((s) => s.url)).toEqual([
      'https://crm.test/api/v1/records',
      'https://crm.test/api/v1/records',
    ]);
    expect(headers).toEqual(['Bearer crm_secret', 'Bearer crm_secret']);
    expect(sent[0]!.key).toBe(sent[1]!.key);
  });

  it('with retry: false sends once', async () => {
    const { fetch, sent } = scriptedFetch(rateLimited('1'), json(201, created));
    const client = createClient({ baseUrl: 'https://crm.test/api/v1', apiKey: 'k', fetch, retry: false });
    const { error, response } = await client.POST('/records', { body: { folderId: 'fld_1', title: 'Ada' } });
    expect(response.status).toBe(429);
    expect(error?.error.code).toBe('RATE_LIMITED');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.key).toBeNull();
  });
});
