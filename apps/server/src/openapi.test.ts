import { createApiKey } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiValidator, type OpenApiValidator } from './testing/openapi-validator.ts';
import { type ApiResponse, startTestApp, type TestApp, type TestWorkspace } from './testing/test-app.ts';

const PREFIX = '/api/v1';
/** Statuses a test cannot provoke on purpose: they are documented but not required to be seen. */
const UNPROVOKABLE = new Set([500, 503]);
/** Error statuses answered after the key was accepted and counted (contract §5: RateLimit-* on every response). */
const AFTER_GATE = new Set([400, 403, 404, 409, 413, 415, 422, 429]);
const MISSING = { folder: 'fld_01jq3v6f6ve7s9t8m1k2c3d4e5', record: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5' };

let app: TestApp;
let served: ApiResponse;
let v: OpenApiValidator;
/** `METHOD /template` → statuses seen in conforming responses. */
const seen = new Map<string, Set<number>>();

interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Sends one request, asserts its status and that the response conforms to the document, records coverage. */
async function call(key: string | null, method: string, template: string, status: number, c: Call = {}) {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(c.params?.[name] ?? 'x_0'),
  );
  const query = c.query ? `?${new URLSearchParams(c.query)}` : '';
  const res = await app.api(key, method, `${PREFIX}${path}${query}`, c.body, c.headers);
  const what = `${method} ${path}${query} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, what).toBe(status);
  const problems = v.validateResponse(method, template, res.status, res.headers, res.body);
  if (res.status >= 400 && res.body?.error?.requestId !== res.headers.get('x-request-id')) {
    problems.push('error.requestId differs from the X-Request-Id header');
  }
  expect(problems, what).toEqual([]);
  const key_ = `${method} ${template}`;
  seen.set(key_, (seen.get(key_) ?? new Set()).add(res.status));
  return res;
}

const ops = (status: number) => v.operations.filter((o) => o.statuses.includes(status));
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  app = await startTestApp();
  served = await app.api(null, 'GET', `${PREFIX}/openapi.json`);
  v = createOpenApiValidator(served.body);
});
afterAll(() => app?.stop());

describe('the document served at /api/v1/openapi.json', () => {
  it('is served as JSON without a key', () => {
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(served.body.openapi).toMatch(/^3\./);
    expect(v.operations.length).toBeGreaterThan(0);
  });

  it('gives every operation an id, a summary, a tag and the bearer requirement', () => {
    const schemes = served.body.components.securitySchemes;
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { method, path, operation } of v.operations) {
      const what = `${method} ${path}`;
      expect(operation.operationId, what).toEqual(expect.any(String));
      expect(operation.summary, what).toEqual(expect.stringMatching(/\S/));
      expect(operation.tags, what).toHaveLength(1);
      expect(operation.security, what).toEqual([{ bearerAuth: [] }]);
    }
  });

  it('documents 201 for creates, and 200 as well for POST /records (upsert)', () => {
    const success = (method: string, path: string) =>
      v.operations.find((o) => o.method === method && o.path === path)?.statuses.filter((s) => s < 300);
    expect(success('POST', '/records')).toEqual([200, 201]);
    expect(success('POST', '/folders')).toEqual([201]);
    expect(success('POST', '/folders/{id}/fields')).toEqual([201]);
    expect(success('POST', '/records/{id}/restore')).toEqual([200]);
    for (const { method, path, statuses } of v.operations) {
      expect(statuses.filter((s) => s < 300).length, `${method} ${path}`).toBeGreaterThan(0);
    }
  });

  it('documents upsert as a query parameter of POST /records and not in its body', () => {
    const operation = v.operations.find((o) => o.method === 'POST' && o.path === '/records')!.operation;
    const parameters = operation.parameters as { in: string; name: string; schema: { enum?: string[] } }[];
    expect(parameters.find((p) => p.name === 'upsert')).toMatchObject({
      in: 'query',
      schema: { enum: ['email'] },
    });
    const body = (operation.requestBody as { content: Record<string, { schema: { properties: object } }> })
      .content['application/json']!.schema;
    expect(Object.keys(body.properties)).not.toContain('upsert');
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['folderId', 'title', 'email']));
  });

  it('points every error response at the contract error schema', () => {
    const error = served.body.components.schemas.Error;
    expect(error.required).toEqual(['error']);
    expect(error.properties.error.required).toEqual(['code', 'message', 'requestId']);
    expect(Object.keys(error.properties.error.properties)).toEqual([
      'code',
      'message',
      'details',
      'requestId',
    ]);
    for (const { method, path, operation, statuses } of v.operations) {
      for (const status of statuses.filter((s) => s >= 400)) {
        const response = v.resolve((operation.responses as Record<string, unknown>)[status]);
        const schema = (response.content as Record<string, { schema: { allOf?: unknown[] } }>)[
          'application/json'
        ]!.schema;
        const refs = [schema, ...(schema.allOf ?? [])].map((s) => (s as { $ref?: string }).$ref);
        expect(refs, `${method} ${path} ${status}`).toContain('#/components/schemas/Error');
      }
    }
  });

  it('requires X-Request-Id everywhere, RateLimit-* once the key is accepted, Retry-After on 429, WWW-Authenticate on 401', () => {
    for (const { method, path, operation, statuses } of v.operations) {
      for (const status of statuses) {
        const response = v.resolve((operation.responses as Record<string, unknown>)[status]);
        const headers = Object.entries((response.headers ?? {}) as Record<string, unknown>);
        const required = headers.filter(([, h]) => v.resolve(h).required === true).map(([name]) => name);
        const expected = ['X-Request-Id'];
        if (status < 300 || AFTER_GATE.has(status))
          expected.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
        if (status === 429) expected.push('Retry-After');
        if (status === 401) expected.push('WWW-Authenticate');
        expect(required, `${method} ${path} ${status}`).toEqual(expect.arrayContaining(expected));
      }
    }
  });
});

describe('real responses conform to the document', () => {
  it('every operation answers its documented success', async () => {
    const ws = await app.createWorkspace();
    const k = ws.apiKey;
    await call(k, 'GET', '/folders', 200, { query: { pageSize: '10' } });
    const folder = (await call(k, 'POST', '/folders', 201, { body: { name: `Leads ${unique()}` } })).body
      .data;
    const id = folder.id as string;
    await call(k, 'GET', '/folders/{id}', 200, { params: { id } });
    await call(k, 'PATCH', '/folders/{id}', 200, { params: { id }, body: { name: `Renamed ${unique()}` } });
    const field = { key: 'stage', label: 'Stage', type: 'SELECT', options: ['new', 'won'] };
    await call(k, 'POST', '/folders/{id}/fields', 201, { params: { id }, body: field });
    await call(k, 'PATCH', '/folders/{id}/fields/{key}', 200, {
      params: { id, key: 'stage' },
      body: { label: 'Sales stage' },
    });

    const email = `${unique()}@example.com`;
    const created = await call(k, 'POST', '/records', 201, {
      body: { folderId: id, title: 'Grace Hopper', email, data: { stage: 'new' } },
    });
    const rec = created.body.data.id as string;
    const upserted = await call(k, 'POST', '/records', 200, {
      query: { upsert: 'email' },
      body: { folderId: id, title: 'Grace B. Hopper', email },
    });
    expect(upserted.body.data.id).toBe(rec);
    const list = await call(k, 'GET', '/records', 200, { query: { folderId: id, search: 'hopper' } });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([rec]);
    await call(k, 'GET', '/records/{id}', 200, { params: { id: rec } });
    await call(k, 'PATCH', '/records/{id}', 200, { params: { id: rec }, body: { data: { stage: 'won' } } });
    await call(k, 'DELETE', '/folders/{id}/fields/{key}', 200, { params: { id, key: 'stage' } });
    const trashed = await call(k, 'DELETE', '/records/{id}', 200, { params: { id: rec } });
    expect(trashed.body.data.trashedAt).toEqual(expect.any(String));
    await call(k, 'POST', '/records/{id}/restore', 200, { params: { id: rec } });
  });

  it('a query parameter the operation does not take is a documented 400 on every operation', async () => {
    const ws = await app.createWorkspace();
    for (const { method, path } of ops(400)) {
      const res = await call(ws.apiKey, method, path, 400, { query: { unexpected: '1' } });
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('invalid bodies and queries are documented 400s that name the field', async () => {
    const ws = await app.createWorkspace();
    const k = ws.apiKey;
    const cases: [string, string, Call, string][] = [
      ['GET', '/records', { query: { pageSize: '500' } }, 'pageSize'],
      ['POST', '/folders', { body: {} }, 'name'],
      ['POST', '/records', { body: { folderId: ws.folderId, title: 'X', email: 'not-an-email' } }, 'email'],
      ['POST', '/records', { body: { folderId: ws.folderId, title: 'X', upsert: 'email' } }, 'upsert'],
      [
        'POST',
        '/folders/{id}/fields',
        { params: { id: ws.folderId }, body: { key: '1x', label: 'X', type: 'TEXT' } },
        'key',
      ],
    ];
    for (const [method, path, c, field] of cases) {
      const res = await call(k, method, path, 400, c);
      expect(
        res.body.error.details?.map((d: { path: string }) => d.path),
        `${method} ${path}`,
      ).toContain(field);
    }
    const malformed = await call(k, 'POST', '/records', 400, { body: '{"title": ' });
    expect(malformed.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('unknown ids, unknown field keys and trashed records are documented 404s', async () => {
    const ws = await app.createWorkspace();
    const k = ws.apiKey;
    const folder = { id: MISSING.folder };
    await call(k, 'GET', '/folders/{id}', 404, { params: folder });
    await call(k, 'PATCH', '/folders/{id}', 404, { params: folder, body: { name: 'X' } });
    await call(k, 'POST', '/folders/{id}/fields', 404, {
      params: folder,
      body: { key: 'x', label: 'X', type: 'TEXT' },
    });
    const field = { id: ws.folderId, key: 'nope' };
    await call(k, 'PATCH', '/folders/{id}/fields/{key}', 404, { params: field, body: { label: 'X' } });
    await call(k, 'DELETE', '/folders/{id}/fields/{key}', 404, { params: field });
    await call(k, 'GET', '/records', 404, { query: { folderId: MISSING.folder } });
    const record = { id: MISSING.record };
    await call(k, 'GET', '/records/{id}', 404, { params: record });
    await call(k, 'PATCH', '/records/{id}', 404, { params: record, body: { title: 'X' } });
    await call(k, 'DELETE', '/records/{id}', 404, { params: record });
    await call(k, 'POST', '/records/{id}/restore', 404, { params: record });

    const rec = (await call(k, 'POST', '/records', 201, { body: { folderId: ws.folderId, title: 'Gone' } }))
      .body.data;
    await call(k, 'DELETE', '/records/{id}', 200, { params: { id: rec.id } });
    await call(k, 'GET', '/records/{id}', 404, { params: { id: rec.id } });
    await call(k, 'DELETE', '/records/{id}', 404, { params: { id: rec.id } });
  });

  it('every operation without a key is a documented 401', async () => {
    for (const { method, path } of ops(401)) {
      const res = await call(null, method, path, 401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
    await call('crm_not-a-real-key', 'GET', '/records', 401);
  });

  it('a key without the needed scope is a documented 403 on every operation', async () => {
    const ws = await app.createWorkspace();
    const key = async (scopes: ('read' | 'write')[]) =>
      (
        await createApiKey(app.service.db, {
          workspaceId: ws.workspaceId,
          userId: ws.userId,
          name: 'scoped',
          scopes,
        })
      ).secret;
    const readOnly = await key(['read']);
    const writeOnly = await key(['write']);
    for (const { method, path } of ops(403)) {
      const res = await call(method === 'GET' ? writeOnly : readOnly, method, path, 403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('every body-reading operation answers a documented 413 over 1 MiB and 415 for another media type', async () => {
    const ws = await app.createWorkspace();
    const huge = JSON.stringify({ title: 'x'.repeat(1024 * 1024) });
    for (const { method, path } of ops(413)) await call(ws.apiKey, method, path, 413, { body: huge });
    for (const { method, path } of ops(415)) {
      await call(ws.apiKey, method, path, 415, {
        body: 'title=x',
        headers: { 'Content-Type': 'text/plain' },
      });
    }
  });

  it('over the workspace rate limit every operation answers a documented 429 with Retry-After', async () => {
    const ws: TestWorkspace = await app.createWorkspace({ rateLimitPerMinute: 2 });
    let res = await app.api(ws.apiKey, 'GET', `${PREFIX}/folders`);
    for (let i = 0; i < 3 && res.status !== 429; i++)
      res = await app.api(ws.apiKey, 'GET', `${PREFIX}/folders`);
    expect(res.status).toBe(429);
    for (const { method, path } of ops(429)) {
      const limited = await call(ws.apiKey, method, path, 429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    }
  });

  it('every documented operation was exercised with a success and with each error a client can provoke', () => {
    const missing = v.operations.flatMap(({ method, path, statuses }) => {
      const got = seen.get(`${method} ${path}`) ?? new Set<number>();
      const gaps = statuses.filter((s) => !UNPROVOKABLE.has(s) && !got.has(s));
      if (![...got].some((s) => s < 300)) gaps.unshift(0);
      return gaps.length ? [`${method} ${path}: ${gaps.map((s) => s || 'no success').join(', ')}`] : [];
    });
    expect(missing).toEqual([]);
  });
});
