import { type CrmClient, createClient, paginate, verifyWebhook, type WebhookEvent } from '@crm/client';
import { workspaceRateLimitSubject } from '@crm/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { Receiver } from './testing/receiver.ts';
import { startTestApp, type TestApp, type TestWorkspace } from './testing/test-app.ts';

// The typed client of packages/client against the real service: every call below is checked
// by TypeScript against the OpenAPI document, and answered by the server.

let app: TestApp;
let ws: TestWorkspace;
let client: CrmClient;

beforeAll(async () => {
  app = await startTestApp({
    worker: true,
    env: { WEBHOOK_RETRY_SCALE: '0.001', WORKER_POLL_INTERVAL_MS: '50' },
  });
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
  client = createClient({ baseUrl: app.url, apiKey: ws.apiKey });
});
afterAll(() => app?.stop());

/** The live records of a folder whose title is `title`, read with the client. */
async function recordsTitled(c: CrmClient, folderId: string, title: string) {
  const found = [];
  for await (const record of paginate(c, '/records', { params: { query: { folderId } } })) {
    if (record.title === title) found.push(record);
  }
  return found;
}

describe('@crm/client against the service', () => {
  it('creates a folder, records and a batch, pages through them and reads one with its typed fields', async () => {
    const folder = await client.POST('/folders', {
      body: {
        name: 'Client leads',
        fields: [
          { key: 'score', label: 'Score', type: 'NUMBER' },
          { key: 'tier', label: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] },
        ],
      },
    });
    expect(folder.response.status).toBe(201);
    const folderId = folder.data!.data.id;
    expect(folder.data!.data.fields.map((f) => f.key)).toEqual(['score', 'tier']);

    const one = await client.POST('/records', {
      body: { folderId, title: 'Ada Lovelace', email: 'ada@example.com', data: { score: 42, tier: 'Gold' } },
    });
    expect(one.response.status).toBe(201);
    expect(one.response.headers.get('Location')).toMatch(/\/api\/v1\/records\/rec_/);

    const batch = await client.POST('/records/batch', {
      body: {
        items: Array.from({ length: 24 }, (_, i) => ({
          folderId,
          title: `Batch ${i}`,
          data: { score: i, tier: i % 2 ? 'Silver' : 'Gold' },
        })),
      },
    });
    expect(batch.response.status).toBe(200);
    expect(batch.data!.meta).toEqual({ succeeded: 24, failed: 0 });
    expect(batch.data!.data.every((entry) => entry.status === 201)).toBe(true);

    // Five pages of 5 (newest first), followed through meta.nextCursor.
    const pages: string[] = [];
    const counting = createClient({
      baseUrl: app.url,
      apiKey: ws.apiKey,
      fetch: (input, init) => {
        pages.push(new URL((input as Request).url).searchParams.get('cursor') ?? '(first)');
        return fetch(input, init);
      },
    });
    const listed = [];
    for await (const record of paginate(counting, '/records', {
      params: { query: { folderId, pageSize: 5 } },
    })) {
      listed.push(record);
    }
    expect(pages).toHaveLength(5);
    expect(pages[0]).toBe('(first)');
    expect(listed).toHaveLength(25);
    expect(new Set(listed.map((r) => r.id)).size).toBe(25);
    expect(listed.at(-1)!.title).toBe('Ada Lovelace');
    expect(listed.every((r) => r.folderId === folderId)).toBe(true);

    // Filters with operators and sorts on custom fields, as the query string nests them.
    const scored = [];
    for await (const record of paginate(client, '/records', {
      params: {
        query: { folderId, filter: { 'data.score': { gte: 20 }, 'data.tier': 'Gold' }, sort: 'data.score' },
      },
    })) {
      scored.push(record.data.score);
    }
    expect(scored).toEqual([20, 22, 42]);

    const { data, error, response } = await client.GET('/records/{id}', {
      params: { path: { id: one.data!.data.id } },
    });
    expect(error).toBeUndefined();
    expect(response.headers.get('ETag')).toBeTruthy();
    const record = data!.data;
    expectTypeOf(record.title).toEqualTypeOf<string>();
    expectTypeOf(record.email).toEqualTypeOf<string | null>();
    expectTypeOf(record.trashedAt).toEqualTypeOf<string | null>();
    expect(record).toMatchObject({
      id: one.data!.data.id,
      folderId,
      title: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: null,
      data: { score: 42, tier: 'Gold' },
      trashedAt: null,
    });

    // An error is typed too: the REST error body.
    const missing = await client.GET('/records/{id}', {
      params: { path: { id: 'rec_00000000000000000000000000' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error!.error.code).toBe('NOT_FOUND');
  });

  it('waits out a 429 and retries the write with the same Idempotency-Key: exactly one record', async () => {
    const small = await app.createWorkspace({ rateLimitPerMinute: 3 });
    const sent: { status: number; key: string | null; retryAfter: string | null }[] = [];
    const waits: number[] = [];
    const limited = createClient({
      baseUrl: app.url,
      apiKey: small.apiKey,
      fetch: async (input, init) => {
        const key = (input as Request).headers.get('Idempotency-Key');
        const response = await fetch(input, init);
        sent.push({ status: response.status, key, retryAfter: response.headers.get('Retry-After') });
        return response;
      },
      retry: {
        // The service asks for up to a minute; instead of waiting it, the window is emptied
        // (as a minute's passing would) and the wait asked for is noted.
        sleep: async (ms) => {
          waits.push(ms);
          await app.service.db.execute(
            sql`delete from rate_limit_buckets where subject = ${workspaceRateLimitSubject(small.workspaceId)}`,
          );
        },
      },
    });
    // createWorkspace read the folders once: two more reads use up the 3 a minute.
    for (let i = 0; i < 2; i++) expect((await limited.GET('/me')).response.status).toBe(200);

    const { data, response } = await limited.POST('/records', {
      body: { folderId: small.folderId, title: 'Rate limited once' },
    });
    expect(response.status).toBe(201);
    const writes = sent.slice(2);
    expect(writes.map((s) => s.status)).toEqual([429, 201]);
    expect(writes[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(writes[1]!.key).toBe(writes[0]!.key);
    // Retry-After (whole seconds, up to about a minute and a half here), capped at the default 60 s.
    expect(Number(writes[0]!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(waits).toEqual([Math.min(60_000, Number(writes[0]!.retryAfter) * 1000)]);

    const records = await recordsTitled(limited, small.folderId, 'Rate limited once');
    expect(records.map((r) => r.id)).toEqual([data!.data.id]);
  });

  it('after a lost answer the retry is answered from the first write: exactly one record', async () => {
    const keys: (string | null)[] = [];
    let lose = true;
    const flaky = createClient({
      baseUrl: app.url,
      apiKey: ws.apiKey,
      fetch: async (input, init) => {
        keys.push((input as Request).headers.get('Idempotency-Key'));
        const response = await fetch(input, init);
        if (lose && (input as Request).method === 'POST') {
          // The service did the write; its answer is lost on the way back.
          lose = false;
          await response.body?.cancel();
          throw new TypeError('fetch failed');
        }
        return response;
      },
      retry: { baseDelayMs: 10 },
    });
    const { data, response } = await flaky.POST('/records', {
      body: { folderId: ws.folderId, title: 'Lost answer' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const records = await recordsTitled(client, ws.folderId, 'Lost answer');
    expect(records.map((r) => r.id)).toEqual([data!.data.id]);
  });

  it('verifies the signature of a real delivery, and the previous secret during a rotation', async () => {
    const receiver = await new Receiver().start();
    try {
      const hook = await client.POST('/webhooks', {
        body: { url: `${receiver.url}/hook`, events: ['record.created'] },
      });
      expect(hook.response.status).toBe(201);
      const { id, secret } = hook.data!.data;

      await client.POST('/records', { body: { folderId: ws.folderId, title: 'Signed once' } });
      const [first] = await receiver.waitFor(1);
      const signed = { body: first!.body, headers: first!.headers };
      expect(first!.headers['x-service-signature-previous']).toBeUndefined();
      expect(await verifyWebhook({ secret, ...signed })).toBe(true);
      const event = JSON.parse(first!.body.toString('utf8')) as WebhookEvent;
      if (event.event !== 'record.created') throw new Error(`unexpected ${event.event}`);
      expect(event.record.title).toBe('Signed once');
      expect(await verifyWebhook({ secret, ...signed, body: first!.body.toString('utf8') })).toBe(true);
      expect(await verifyWebhook({ secret: `${secret}x`, ...signed })).toBe(false);
      const tampered = Buffer.from(first!.body.toString('utf8').replace('Signed once', 'Signed twice'));
      expect(await verifyWebhook({ secret, ...signed, body: tampered })).toBe(false);

      const rotated = await client.POST('/webhooks/{id}/rotate-secret', { params: { path: { id } } });
      const newSecret = rotated.data!.data.secret;
      expect(newSecret).not.toBe(secret);
      await client.POST('/records', { body: { folderId: ws.folderId, title: 'Signed during a rotation' } });
      const second = (await receiver.waitFor(2))[1]!;
      expect(second.headers['x-service-signature-previous']).toBeDefined();
      const during = { body: second.body, headers: second.headers };
      expect(await verifyWebhook({ secret: newSecret, ...during })).toBe(true);
      expect(await verifyWebhook({ secret, ...during })).toBe(true);
      expect(await verifyWebhook({ secret: 'whsec_neither', ...during })).toBe(false);
    } finally {
      await receiver.stop();
    }
  });
});
