import { request } from 'node:http';
import {
  addMember,
  allScopes,
  createApiKey,
  displayPrefix,
  generateSecret,
  hashSecret,
  newId,
  type Scope,
} from '@crm/domain';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Call,
  invalidInputs,
  notFoundWalks,
  type Send,
  successWalks,
  unique,
} from './testing/openapi-requests.ts';
import { createOpenApiValidator, type OpenApiValidator } from './testing/openapi-validator.ts';
import { type ApiResponse, startTestApp, type TestApp, type TestWorkspace } from './testing/test-app.ts';

const PREFIX = '/api/v1';
/**
 * Statuses a test cannot provoke on purpose, documented but not required to be seen: server
 * and database failures, and 409, which needs a request with the same key still running.
 */
const UNPROVOKABLE = new Set([409, 500, 503]);
const CREATES = [
  'POST /folders',
  'POST /folders/{id}/fields',
  'POST /records/{id}/comments',
  'POST /records/{id}/calls',
  'POST /pipelines',
  'POST /pipelines/{id}/stages',
  'POST /deals',
  'POST /tasks',
  'POST /webhooks',
  'POST /deliveries/{id}/redeliver',
  'POST /workflows',
  'POST /runs/{id}/rerun',
  'POST /jobs/imports',
  'POST /jobs/exports',
  'POST /jobs/{id}/revert',
  'POST /sandboxes',
];
/** Creations that answer 200 with what was there when there was nothing to create (an upsert, a link made twice). */
const CREATES_OR_FOUND = [
  'POST /records',
  // 200 for a dry run: how many records match.
  'POST /jobs/updates',
  'POST /records/{id}/links',
  'POST /deals/{id}/links',
  'POST /tasks/{id}/links',
];
/**
 * The operations any valid key may call: who the caller is, the members to assign work to, and
 * the sandboxes every member may open.
 */
const NO_SCOPE = ['GET /me', 'GET /members', 'GET /sandboxes', 'GET /sandboxes/{id}'];
/**
 * Error statuses answered after the key was accepted and counted (authenticated responses carry
 * RateLimit-*: docs/api.md, "Requests and responses").
 */
const AFTER_GATE = new Set([400, 403, 404, 409, 413, 415, 422, 429]);

let app: TestApp;
let served: ApiResponse;
let v: OpenApiValidator;

/** Sends one request and asserts its status and that the response conforms to the document. */
async function call(key: string | null, method: string, template: string, status: number, c: Call = {}) {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(c.params?.[name] ?? 'x_0'),
  );
  const query = c.query ? `?${new URLSearchParams(c.query)}` : '';
  const res = await app.api(key, method, `${PREFIX}${path}${query}`, c.body, c.headers);
  const what = `${method} ${path}${query} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, what).toBe(status);
  // A tool finds the operation from the URL alone, through the document's server.
  const matched = v.operationAt(method, `${app.url}${PREFIX}${path}`, documentUrl());
  expect(`${matched.method} ${matched.path}`, what).toBe(`${method} ${template}`);
  const problems = v.validateResponse(method, template, res.status, res.headers, res.body);
  // A replayed error is the first response verbatim, so its requestId is the first request's.
  const replayed = res.headers.get('idempotent-replayed') === 'true';
  if (res.status >= 400 && !replayed && res.body?.error?.requestId !== res.headers.get('x-request-id')) {
    problems.push('error.requestId differs from the X-Request-Id header');
  }
  expect(problems, what).toEqual([]);
  return res;
}

/**
 * A key as keys were stored before scopes were per resource: `read` and `write`, no folders
 * (the migration added `folder_ids` as null), inserted directly rather than made by createApiKey.
 */
async function keyStoredBeforeScopes(workspaceId: string, userId: string): Promise<string> {
  const secret = generateSecret();
  await app.service.pool.query(
    `insert into api_keys (workspace_id, id, user_id, name, prefix, secret_hash, scopes, folder_ids)
     values ($1, $2, $3, 'from before scopes', $4, $5, '{read,write}', null)`,
    [workspaceId, newId('apiKey'), userId, displayPrefix(secret), hashSecret(secret)],
  );
  return secret;
}

/**
 * A PUT that declares a Content-Length and sends none of it: what the service answers on the
 * declaration alone. The connection is dropped once the answer is read.
 */
async function declaredOnly(path: string, key: string, bytes: number) {
  const url = new URL(`${app.url}${path}`);
  return new Promise<{ status: number; headers: Headers; body: unknown }>((resolve, reject) => {
    const req = request(url, {
      method: 'PUT',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'text/csv',
        'Content-Length': String(bytes),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') headers.set(name, value);
        resolve({
          status: res.statusCode ?? 0,
          headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

const sender =
  (key: string): Send =>
  (method, template, status, c) =>
    call(key, method, template, status, c);
/** Where the test app serves the document, against which its relative server URLs resolve. */
const documentUrl = () => `${app.url}${PREFIX}/openapi.json`;
/**
 * The operations of /api/v1: those under the document's server. The trigger endpoint (no key,
 * its own error body), whose path has a server of its own, has a test of its own.
 */
const restOperations = () => v.operations.filter((o) => !served.body.paths[o.path].servers);
/** The operations whose body the server reads; they must document the body and Idempotency-Key errors. */
const writes = () => restOperations().filter((o) => o.method === 'POST' || o.method === 'PATCH');

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
    expect(served.headers.get('x-request-id')).toBeTruthy();
    expect(served.body.openapi).toMatch(/^3\./);
    expect(restOperations().length).toBeGreaterThan(0);
  });

  it('names every operation `<resource>-<action>`, the trigger included', () => {
    const ids = v.operations.map((o) => o.operation.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z]+-[a-z][A-Za-z]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('workflows-trigger');
  });

  it('documents amount without multipleOf, which validators judge in binary floating point', () => {
    // ajv (what Prism and most JavaScript validators run) divides in binary floating point:
    // under `multipleOf: 0.01` it refuses amounts the server takes (docs/api.md, "Limits in
    // the document"). Should that change, `multipleOf` can join the document.
    const ajv = new Ajv2020();
    const cents = ajv.compile({ type: 'number', multipleOf: 0.01 });
    expect([0.07, 19.99, 1234.56].map((amount) => cents(amount))).toEqual([false, false, false]);
    const deal = v.resolve(
      (
        restOperations().find((o) => o.method === 'POST' && o.path === '/deals')!.operation.requestBody as {
          content: Record<string, { schema: unknown }>;
        }
      ).content['application/json']!.schema,
    ) as { properties: Record<string, Record<string, unknown>> };
    expect(deal.properties.amount).not.toHaveProperty('multipleOf');
    expect(deal.properties.amount!.description).toMatch(/at most 2 decimals/);
  });

  it('gives every operation an id, a summary, a tag and the bearer requirement', () => {
    const schemes = served.body.components.securitySchemes;
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { method, path, operation } of restOperations()) {
      const what = `${method} ${path}`;
      expect(operation.operationId, what).toEqual(expect.any(String));
      expect(operation.summary, what).toEqual(expect.stringMatching(/\S/));
      expect(operation.tags, what).toHaveLength(1);
      // The operation names the scope it needs (docs/api.md, "Scopes"); the bearer requirement
      // lists none, as OpenAPI allows scopes only on OAuth schemes.
      const scope = operation['x-required-scope'];
      expect(operation.security, what).toEqual([{ bearerAuth: [] }]);
      if (scope) expect(operation.description, what).toContain(`Needs the \`${scope}\` scope.`);
      else expect(NO_SCOPE, what).toContain(what);
    }
  });

  it('documents 201 for creates, and 200 as well for POST /records (upsert)', () => {
    const successes = Object.fromEntries(
      restOperations().map((o) => [`${o.method} ${o.path}`, o.statuses.filter((s) => s < 300)]),
    );
    for (const create of CREATES) expect(successes[create], create).toEqual([201]);
    for (const create of CREATES_OR_FOUND) expect(successes[create], create).toEqual([200, 201]);
    expect(successes['POST /records/{id}/restore']).toEqual([200]);
    // An upload is accepted: the job runs it later.
    expect(successes['PUT /jobs/{id}/file']).toEqual([202]);
    for (const [operation, statuses] of Object.entries(successes)) {
      if (
        !CREATES.includes(operation) &&
        !CREATES_OR_FOUND.includes(operation) &&
        operation !== 'PUT /jobs/{id}/file'
      )
        expect(statuses, operation).toEqual([200]);
    }
  });

  it('documents upsert as a query parameter of POST /records and not in its body', () => {
    const operation = restOperations().find((o) => o.method === 'POST' && o.path === '/records')!.operation;
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

  it('documents the batch writes: items of the single call’s body, upsert in the query, 200 only', () => {
    const batches = restOperations().filter((o) => /\/batch(\/|$)/.test(o.path));
    expect(batches.map((o) => `${o.method} ${o.path}`).sort()).toEqual([
      'PATCH /deals/batch',
      'PATCH /records/batch',
      'PATCH /tasks/batch',
      'POST /deals/batch',
      'POST /deals/batch/delete',
      'POST /records/batch',
      'POST /records/batch/trash',
      'POST /records/links/batch',
      'POST /records/links/batch/delete',
      'POST /tasks/batch',
      'POST /tasks/batch/delete',
    ]);
    for (const { method, path, statuses } of batches) {
      expect(
        statuses.filter((s) => s < 300),
        `${method} ${path}`,
      ).toEqual([200]);
      expect(statuses, `${method} ${path}`).not.toContain(404);
    }
    const create = restOperations().find(
      (o) => o.method === 'POST' && o.path === '/records/batch',
    )!.operation;
    const parameters = create.parameters as { in: string; name: string }[];
    expect(parameters.find((p) => p.name === 'upsert')).toMatchObject({ in: 'query' });
    const body = v.resolve(
      (create.requestBody as { content: Record<string, { schema: unknown }> }).content['application/json']!
        .schema,
    ) as { properties: { items: { maxItems: number; items: { properties: object } } } };
    expect(body.properties.items.maxItems).toBe(100);
    const single = restOperations().find((o) => o.method === 'POST' && o.path === '/records')!.operation;
    const singleBody = v.resolve(
      (single.requestBody as { content: Record<string, { schema: unknown }> }).content['application/json']!
        .schema,
    ) as { properties: object };
    expect(v.resolve(body.properties.items.items).properties).toEqual(singleBody.properties);
  });

  it('documents filter as a deepObject, sort and count on the lists, and POST /records/query', () => {
    for (const path of ['/records', '/deals', '/tasks']) {
      const operation = restOperations().find((o) => o.method === 'GET' && o.path === path)!.operation;
      const parameters = operation.parameters as { in: string; name: string; style?: string }[];
      expect(
        parameters.find((p) => p.name === 'filter'),
        path,
      ).toMatchObject({
        in: 'query',
        style: 'deepObject',
        explode: true,
      });
      expect(
        parameters.map((p) => p.name),
        path,
      ).toEqual(expect.arrayContaining(['sort', 'count', 'cursor']));
    }
    const query = restOperations().find((o) => o.method === 'POST' && o.path === '/records/query')!;
    const body = v.resolve(
      (query.operation.requestBody as { content: Record<string, { schema: unknown }> }).content[
        'application/json'
      ]!.schema,
    ) as { properties: Record<string, unknown> };
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['filter', 'sort', 'count', 'cursor']),
    );
    expect(served.body.components.schemas.FilterNode).toBeDefined();
    expect(served.body.components.schemas.ListMeta.properties.total).toMatchObject({ type: 'integer' });
  });

  it('points every error response at the shared error schema', () => {
    const error = served.body.components.schemas.Error;
    expect(error.required).toEqual(['error']);
    expect(error.properties.error.required).toEqual(['code', 'message', 'requestId']);
    expect(Object.keys(error.properties.error.properties)).toEqual([
      'code',
      'message',
      'details',
      'requestId',
    ]);
    for (const { method, path, operation, statuses } of restOperations()) {
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
    for (const { method, path, operation, statuses } of restOperations()) {
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
  for (const [resource, walk] of Object.entries(successWalks)) {
    it(`${resource}: every operation answers its documented success`, async () => {
      const ws = await app.createWorkspace();
      await walk(sender(ws.apiKey), ws, app);
    });
  }

  it('a query parameter the operation does not take is a documented 400 on every operation', async () => {
    const ws = await app.createWorkspace();
    for (const { method, path } of restOperations()) {
      const res = await call(ws.apiKey, method, path, 400, { query: { unexpected: '1' } });
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('invalid bodies and queries are documented 400s that name the field', async () => {
    const ws = await app.createWorkspace();
    for (const [method, path, c, field] of invalidInputs(ws)) {
      const res = await call(ws.apiKey, method, path, 400, c);
      const fields = res.body.error.details?.map((d: { path: string }) => d.path);
      expect(fields, `${method} ${path}`).toContain(field);
    }
    const malformed = await call(ws.apiKey, 'POST', '/records', 400, { body: '{"title": ' });
    expect(malformed.body.error.message).toMatch(/not valid JSON/);
  });

  for (const [resource, walk] of Object.entries(notFoundWalks)) {
    it(`${resource}: unknown ids are documented 404s`, async () => {
      const ws = await app.createWorkspace();
      await walk(sender(ws.apiKey), ws, app);
    });
  }

  it('every operation without a key is a documented 401', async () => {
    for (const { method, path } of restOperations()) {
      const res = await call(null, method, path, 401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
    await call('crm_not-a-real-key', 'GET', '/records', 401);
  });

  it('a key lacking exactly the scope an operation needs is a documented 403 naming it, on every operation', async () => {
    const ws = await app.createWorkspace();
    const keys = new Map<string, string>();
    /** A key holding every scope but `missing`. */
    const keyWithout = async (missing: Scope) => {
      let secret = keys.get(missing);
      if (!secret) {
        secret = (
          await createApiKey(app.service.db, {
            workspaceId: ws.workspaceId,
            userId: ws.userId,
            name: `all but ${missing}`,
            scopes: allScopes.filter((scope) => scope !== missing),
          })
        ).secret;
        keys.set(missing, secret);
      }
      return secret;
    };
    let walked = 0;
    for (const { method, path, operation } of restOperations()) {
      const needed = operation['x-required-scope'] as Scope | null;
      if (needed === null) continue;
      const res = await call(await keyWithout(needed), method, path, 403);
      expect(res.body.error, `${method} ${path}`).toMatchObject({
        code: 'FORBIDDEN',
        message: `This API key lacks the ${needed} scope`,
        details: [{ path: 'scope', message: `needs ${needed}` }],
      });
      walked++;
    }
    expect(walked).toBe(restOperations().length - NO_SCOPE.length);
  });

  it('a key limited to folders finds nothing outside them (404), and works inside them', async () => {
    const ws = await app.createWorkspace();
    const inside = await app.api(ws.apiKey, 'POST', `${PREFIX}/folders`, { name: 'Inside' });
    const insideRecord = await app.api(ws.apiKey, 'POST', `${PREFIX}/records`, {
      folderId: inside.body.data.id,
      title: 'Seen',
    });
    const outsideRecord = await app.api(ws.apiKey, 'POST', `${PREFIX}/records`, {
      folderId: ws.folderId,
      title: 'Hidden',
    });
    const { secret } = await createApiKey(app.service.db, {
      workspaceId: ws.workspaceId,
      userId: ws.userId,
      name: 'one folder',
      folderIds: [inside.body.data.id],
    });
    const hidden = outsideRecord.body.data.id;
    const seen = insideRecord.body.data.id;
    await call(secret, 'GET', '/records/{id}', 404, { params: { id: hidden } });
    await call(secret, 'PATCH', '/records/{id}', 404, { params: { id: hidden }, body: { title: 'x' } });
    await call(secret, 'DELETE', '/records/{id}', 404, { params: { id: hidden } });
    await call(secret, 'GET', '/records/{id}/comments', 404, { params: { id: hidden } });
    await call(secret, 'POST', '/records/{id}/calls', 404, { params: { id: hidden }, body: {} });
    await call(secret, 'GET', '/records/{id}/history', 404, { params: { id: hidden } });
    await call(secret, 'GET', '/folders/{id}', 404, { params: { id: ws.folderId } });
    // A folder the key does not reach is one that does not exist, as a body names it (400).
    const refused = await call(secret, 'POST', '/records', 400, {
      body: { folderId: ws.folderId, title: 'Nope' },
    });
    expect(refused.body.error.details).toEqual([
      { path: 'folderId', message: `folder ${ws.folderId} does not exist` },
    ]);
    const list = await call(secret, 'GET', '/records', 200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([seen]);
    const folders = await call(secret, 'GET', '/folders', 200);
    expect(folders.body.data.map((f: { id: string }) => f.id)).toEqual([inside.body.data.id]);
    await call(secret, 'GET', '/records/{id}', 200, { params: { id: seen } });
    // An export is the list: the records of its folders, and a folder it does not reach is not found.
    const exported = await call(secret, 'GET', '/records/export', 200);
    expect(exported.body.data.map((r: { id: string }) => r.id)).toEqual([seen]);
    await call(secret, 'GET', '/records/export', 404, { query: { folderId: ws.folderId } });
    const everything = await call(ws.apiKey, 'GET', '/records/export', 200);
    expect(everything.body.data.map((r: { id: string }) => r.id).sort()).toEqual([hidden, seen].sort());
  });

  it('a key limited to folders holds no scope that reaches every folder, though made with `write`', async () => {
    const ws = await app.createWorkspace();
    const { secret } = await createApiKey(app.service.db, {
      workspaceId: ws.workspaceId,
      userId: ws.userId,
      name: 'one folder, write',
      folderIds: [ws.folderId],
    });
    const hook = { url: 'https://hooks.example.com/crm', events: ['record.created'] };
    const workflow = {
      name: 'Everywhere',
      trigger: { type: 'record.created' },
      actions: [{ type: 'ADD_COMMENT', text: 'seen' }],
    };
    for (const [method, path, body, needed] of [
      ['POST', '/webhooks', hook, 'webhooks:write'],
      ['POST', '/workflows', workflow, 'workflows:write'],
      ['GET', '/workflows', undefined, 'workflows:read'],
    ] as const) {
      const res = await call(secret, method, path, 403, { body });
      expect(res.body.error.details).toEqual([{ path: 'scope', message: `needs ${needed}` }]);
    }
    // Reading subscriptions shows no record: kept.
    await call(secret, 'GET', '/webhooks', 200);
    const me = await call(secret, 'GET', '/me', 200);
    expect(me.body.data.key.scopes).toEqual(['read', 'write']);
    expect(me.body.data.scopes).not.toContain('webhooks:write');
    expect(me.body.data.scopes).toContain('webhooks:read');
  });

  it('a key stored before scopes (read and write, every folder) by an ADMIN walks every operation as before', async () => {
    for (const [resource, walk] of Object.entries(successWalks)) {
      const ws = await app.createWorkspace();
      await app.service.pool.query(
        `update memberships set role = 'ADMIN' where workspace_id = $1 and user_id = $2`,
        [ws.workspaceId, ws.userId],
      );
      const old = await keyStoredBeforeScopes(ws.workspaceId, ws.userId);
      const me = await call(old, 'GET', '/me', 200);
      expect(me.body.data.user.role, resource).toBe('ADMIN');
      await walk(sender(old), { ...ws, apiKey: old }, app);
    }
  });

  it('a key stored before scopes by a MEMBER is a 403 naming the scope on every webhook operation', async () => {
    const ws = await app.createWorkspace();
    const other = await app.createWorkspace();
    await addMember(app.service.db, ws.workspaceId, other.userId, 'MEMBER');
    const old = await keyStoredBeforeScopes(ws.workspaceId, other.userId);
    // Records as before.
    await call(old, 'POST', '/records', 201, { body: { folderId: ws.folderId, title: 'Still works' } });
    const webhookOperations = restOperations().filter((o) =>
      String(o.operation['x-required-scope']).startsWith('webhooks:'),
    );
    expect(webhookOperations.length).toBeGreaterThanOrEqual(9);
    for (const { method, path, operation } of webhookOperations) {
      const needed = operation['x-required-scope'] as Scope;
      const res = await call(old, method, path, 403);
      expect(res.body.error, `${method} ${path}`).toMatchObject({
        code: 'FORBIDDEN',
        message: `This API key lacks the ${needed} scope`,
        details: [{ path: 'scope', message: `needs ${needed}` }],
      });
    }
  });

  it('every body-reading operation answers a documented 413 over 1 MiB and 415 for another media type', async () => {
    // Two requests per write and a few more: above the default rate limit of a minute.
    const ws = await app.createWorkspace({ rateLimitPerMinute: 1000 });
    const huge = JSON.stringify({ title: 'x'.repeat(1024 * 1024) });
    for (const { method, path } of writes()) await call(ws.apiKey, method, path, 413, { body: huge });
    // Without Content-Length the limit is enforced while the body streams in.
    const chunk = new TextEncoder().encode(huge.slice(0, 64 * 1024));
    let sent = 0;
    const body = new ReadableStream({ pull: (c) => (sent++ < 17 ? c.enqueue(chunk) : c.close()) });
    const streamed = await fetch(`${app.url}${PREFIX}/folders`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { Authorization: `Bearer ${ws.apiKey}`, 'Content-Type': 'application/json' },
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(v.validateResponse('POST', '/folders', 413, streamed.headers, await streamed.json())).toEqual([]);
    // A job's file over 1 GiB is refused on its Content-Length, before a byte of it is read.
    const job = await call(ws.apiKey, 'POST', '/jobs/imports', 201, {
      body: { folderId: ws.folderId, format: 'csv', mapping: { Name: 'title' } },
    });
    const tooBig = await declaredOnly(`${PREFIX}/jobs/${job.body.data.id}/file`, ws.apiKey, 2 ** 31);
    expect(tooBig.status).toBe(413);
    expect(v.validateResponse('PUT', '/jobs/{id}/file', 413, tooBig.headers, tooBig.body)).toEqual([]);
    for (const { method, path } of writes()) {
      await call(ws.apiKey, method, path, 415, {
        body: 'title=x',
        headers: { 'Content-Type': 'text/plain' },
      });
    }
  });

  it('a reused Idempotency-Key is a documented 422 on every write, and a repeat replays the first answer', async () => {
    // Three requests a write: more than the default 120 a minute.
    const ws = await app.createWorkspace({ rateLimitPerMinute: 1000 });
    for (const { method, path } of writes()) {
      const headers = { 'Idempotency-Key': `key-${unique()}` };
      const first = await call(ws.apiKey, method, path, 400, { body: { unexpected: 1 }, headers });
      const again = await call(ws.apiKey, method, path, 400, { body: { unexpected: 1 }, headers });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const reused = await call(ws.apiKey, method, path, 422, { body: { other: 2 }, headers });
      expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    }
    const once = { body: { name: `Once ${unique()}` }, headers: { 'Idempotency-Key': `key-${unique()}` } };
    const created = await call(ws.apiKey, 'POST', '/folders', 201, once);
    const replayed = await call(ws.apiKey, 'POST', '/folders', 201, once);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(created.body);
  });

  it('a current ETag in If-None-Match is a documented 304, a stale If-Match a documented 412, on every single resource', async () => {
    const ws = await app.createWorkspace();
    const send = sender(ws.apiKey);
    const made = async (path: string, body: unknown) => (await send('POST', path, 201, { body })).body.data;
    const folder = await made('/folders', {
      name: `If-Match ${unique()}`,
      fields: [{ key: 'k', label: 'K', type: 'TEXT' }],
    });
    const rel = {
      key: 'rel',
      label: 'Rel',
      type: 'RELATION',
      relation: { folderId: folder.id, cardinality: 'MANY' },
    };
    await send('POST', '/folders/{id}/fields', 201, { params: { id: folder.id }, body: rel });
    const pipeline = await made('/pipelines', { name: `If-Match ${unique()}`, stages: ['A', 'B'] });
    const ids: Record<string, string> = {
      folders: folder.id,
      key: 'k',
      pipelines: pipeline.id,
      stageId: pipeline.stages[1].id,
      records: (await made('/records', { folderId: folder.id, title: 'R' })).id,
      deals: (await made('/deals', { pipelineId: pipeline.id, title: 'D' })).id,
      tasks: (await made('/tasks', { title: 'T' })).id,
      field: 'rel',
      to: (await made('/records', { folderId: folder.id, title: 'To' })).id,
      webhooks: (await made('/webhooks', { url: 'http://127.0.0.1:1/hook', events: ['*'] })).id,
      workflows: (
        await made('/workflows', {
          name: 'W',
          trigger: { type: 'INCOMING_WEBHOOK' },
          actions: [{ type: 'CREATE_RECORD', folderId: folder.id, title: 'x' }],
        })
      ).id,
    };
    const workflow = await send('GET', '/workflows/{id}', 200, { params: { id: ids.workflows! } });
    const triggered = await fetch(workflow.body.data.trigger.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    ids.runs = ((await triggered.json()) as { runId: string }).runId;
    const onRecord = { params: { id: ids.records! } };
    ids.commentId = (
      await send('POST', '/records/{id}/comments', 201, { ...onRecord, body: { text: 'C' } })
    ).body.data.id;
    ids.callId = (await send('POST', '/records/{id}/calls', 201, { ...onRecord, body: {} })).body.data.id;
    await send('POST', '/records/{id}/links', 201, { ...onRecord, body: { field: 'rel', to: ids.to } });
    await send('POST', '/deals/{id}/links', 201, { params: { id: ids.deals! }, body: { to: ids.to } });
    await send('POST', '/tasks/{id}/links', 201, { params: { id: ids.tasks! }, body: { to: ids.to } });
    ids.deliveries = (
      await send('POST', '/webhooks/{id}/test', 200, { params: { id: ids.webhooks! } })
    ).body.data.id;
    ids.jobs = (await made('/jobs/exports', { folderId: folder.id, format: 'csv' })).id;
    ids.sandboxes = (await made('/sandboxes', { name: `If-Match ${unique()}` })).id;
    const paramsOf = (path: string) => {
      const segments = path.split('/');
      return Object.fromEntries(
        segments.flatMap((segment, i) => {
          const name = /^\{(\w+)\}$/.exec(segment)?.[1];
          if (!name) return [];
          return [[name, name === 'id' ? ids[segments[i - 1]!]! : ids[name]!]];
        }),
      );
    };
    // A single resource: its ETag in If-None-Match is a 304.
    const singles = restOperations().filter(
      (o) =>
        o.method === 'GET' &&
        (o.operation.responses as Record<string, { headers?: object }>)['200']?.headers &&
        'ETag' in (o.operation.responses as Record<string, { headers: object }>)['200']!.headers,
    );
    expect(singles.length).toBeGreaterThanOrEqual(8);
    for (const { path } of singles) {
      const params = paramsOf(path);
      const current = await call(ws.apiKey, 'GET', path, 200, { params });
      const etag = current.headers.get('etag')!;
      await call(ws.apiKey, 'GET', path, 304, { params, headers: { 'If-None-Match': etag } });
    }
    const conditional = restOperations().filter(
      (o) => (o.method === 'PATCH' || o.method === 'DELETE') && !o.path.endsWith('/batch'),
    );
    expect(conditional.length).toBeGreaterThan(10);
    for (const { method, path } of conditional) {
      const params = paramsOf(path);
      const res = await call(ws.apiKey, method, path, 412, {
        params,
        headers: { 'If-Match': '"stale"' },
        ...(method === 'PATCH' ? { body: {} } : {}),
      });
      expect(res.body.error.code).toBe('PRECONDITION_FAILED');
    }
  });

  it('over the workspace rate limit every operation answers a documented 429 with Retry-After', async () => {
    const ws: TestWorkspace = await app.createWorkspace({ rateLimitPerMinute: 2 });
    let res = await app.api(ws.apiKey, 'GET', `${PREFIX}/folders`);
    for (let i = 0; i < 3 && res.status !== 429; i++)
      res = await app.api(ws.apiKey, 'GET', `${PREFIX}/folders`);
    expect(res.status).toBe(429);
    for (const { method, path } of restOperations()) {
      const limited = await call(ws.apiKey, method, path, 429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    }
  });

  it('the trigger endpoint answers what the document says, success and each error a caller can provoke', async () => {
    const ws = await app.createWorkspace();
    const send = sender(ws.apiKey);
    const make = async (extra: Record<string, unknown>) =>
      (
        await send('POST', '/workflows', 201, {
          body: {
            name: `Trigger ${unique()}`,
            trigger: { type: 'INCOMING_WEBHOOK' },
            actions: [{ type: 'CREATE_RECORD', folderId: ws.folderId, title: '[[ trigger.body.name ]]' }],
            ...extra,
          },
        })
      ).body.data;
    const operation = v.operations.find((o) => o.operation.operationId === 'workflows-trigger')!;
    const rateLimit = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
    const trigger = async (url: string, status: number, init: RequestInit = {}) => {
      const res = await fetch(url, {
        method: 'POST',
        ...init,
        headers: { 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
      });
      const text = await res.text();
      const body = text ? JSON.parse(text) : undefined;
      expect(res.status, `${url} → ${text}`).toBe(status);
      // The URL alone leads to the operation, through its path's own server.
      expect(v.operationAt('POST', url, documentUrl()), url).toBe(operation);
      expect(v.validateResponse('POST', operation.path, res.status, res.headers, body), text).toEqual([]);
      // Headers the answer does not document are not sent either (the documented ones are
      // checked above: present when required, valid when present).
      const documented = v.resolve((operation.operation.responses as Record<string, unknown>)[status]!)
        .headers as Record<string, unknown>;
      for (const name of rateLimit) {
        if (!documented[name]) expect(res.headers.get(name), `${status} ${name}`).toBeNull();
      }
      return { body, counted: res.headers.get('RateLimit-Limit') !== null };
    };
    const open = await make({});
    const accepted = await trigger(open.trigger.url, 200, { body: JSON.stringify({ name: 'Ada' }) });
    expect(accepted.body).toMatchObject({
      ok: true,
      workflowId: open.id,
      runId: expect.stringMatching(/^run_/),
    });
    expect((await trigger(open.trigger.url, 400, { body: '{"name":' })).counted).toBe(false);
    // A 400 or 404 met once the call was counted carries RateLimit-* (documented, not required).
    expect((await trigger(open.trigger.url, 400, { body: '{"recordId":5}' })).counted).toBe(true);
    const missing = { recordId: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5' };
    expect((await trigger(open.trigger.url, 404, { body: JSON.stringify(missing) })).counted).toBe(true);
    await trigger(open.trigger.url.replace(open.id, 'wf_unknown'), 404, { body: '{}' });
    await trigger(open.trigger.url, 413, { body: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }) });
    await trigger(open.trigger.url, 415, { body: 'name=Ada', headers: { 'Content-Type': 'text/plain' } });
    const key = { 'Idempotency-Key': `trigger-${unique()}` };
    await trigger(open.trigger.url, 200, { body: '{"name":"A"}', headers: key });
    await trigger(open.trigger.url, 422, { body: '{"name":"B"}', headers: key });
    const signed = await make({ requireSignature: true });
    await trigger(signed.trigger.url, 401, {
      body: '{}',
      headers: { 'X-Service-Signature': `sha256=${'0'.repeat(64)}` },
    });
    const limited = await make({ rateLimitPerMinute: 1 });
    await trigger(limited.trigger.url, 200, { body: '{}' });
    const over = await trigger(limited.trigger.url, 429, { body: '{}' });
    expect(over.body).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
  });

  it('every documented operation was exercised with a success and with each error a client can provoke', () => {
    expect(v.coverageGaps(UNPROVOKABLE).join('\n')).toBe('');
  });
});
