import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
});
afterAll(() => app?.stop());

async function recordCount(): Promise<number> {
  const result = await app.service.db.execute<{ n: number }>(
    sql`select count(*)::int as n from records where workspace_id = ${ws.workspaceId}`,
  );
  return result.rows[0]!.n;
}

function expectContractError(
  res: { status: number; body: unknown; text: string },
  status: number,
  code: string,
) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({
    error: expect.objectContaining({ code, message: expect.any(String), requestId: expect.any(String) }),
  });
  expect(res.text).not.toMatch(/at .*\.ts:\d+|ZodError|select |insert |postgres/i);
}

describe('bad input gets the REST error body and writes nothing', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    app.api(ws.apiKey, 'POST', '/api/v1/records', body, headers);

  const cases: [string, () => ReturnType<typeof post>, number, string][] = [
    [
      'malformed JSON',
      () => post('{"folderId": ', { 'Content-Type': 'application/json' }),
      400,
      'VALIDATION_FAILED',
    ],
    ['a JSON array body', () => post('[1,2]'), 400, 'VALIDATION_FAILED'],
    ['text/plain', () => post('title=x', { 'Content-Type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'form encoding',
      () => post('title=x', { 'Content-Type': 'application/x-www-form-urlencoded' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'an unknown key',
      () => post({ folderId: ws.folderId, title: 'x', colour: 'red' }),
      400,
      'VALIDATION_FAILED',
    ],
    ['a wrong type', () => post({ folderId: ws.folderId, title: 42 }), 400, 'VALIDATION_FAILED'],
    ['a missing title', () => post({ folderId: ws.folderId }), 400, 'VALIDATION_FAILED'],
    [
      'an invalid email',
      () => post({ folderId: ws.folderId, title: 'x', email: 'not-an-email' }),
      400,
      'VALIDATION_FAILED',
    ],
    [
      'data that is not an object',
      () => post({ folderId: ws.folderId, title: 'x', data: [1] }),
      400,
      'VALIDATION_FAILED',
    ],
    [
      'an invalid SELECT value',
      () => post({ folderId: ws.folderId, title: 'x', data: { lifecycle: 'Nope' } }),
      400,
      'VALIDATION_FAILED',
    ],
    [
      'an unknown custom key',
      () => post({ folderId: ws.folderId, title: 'x', data: { shoe: 42 } }),
      400,
      'VALIDATION_FAILED',
    ],
    [
      'an unknown folder',
      () => post({ folderId: 'fld_01m7yajqape00a5jqksd4af06w', title: 'x' }),
      400,
      'VALIDATION_FAILED',
    ],
    [
      'a 2 MiB body',
      () => post({ folderId: ws.folderId, title: 'x'.repeat(2 * 1024 * 1024) }),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      'an owner who is not a member',
      () => post({ folderId: ws.folderId, title: 'x', ownerId: 'usr_01m7yajqahe00b4yfkwaapmhx6' }),
      400,
      'VALIDATION_FAILED',
    ],
  ];

  it.each(cases)('%s', async (_name, send, status, code) => {
    const before = await recordCount();
    expectContractError(await send(), status, code);
    expect(await recordCount()).toBe(before);
  });

  it('names every invalid field in details', async () => {
    const res = await post({ folderId: ws.folderId, title: '', email: 'nope', extra: 1 });
    expectContractError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'email',
      'extra',
      'title',
    ]);
  });

  it('refuses a PATCH with bad values and leaves the record as it was', async () => {
    const created = await post({ folderId: ws.folderId, title: 'Keep me', data: { company: 'Acme' } });
    const id = created.body.data.id;
    for (const body of [
      { title: null },
      { data: { lifecycle: 'Nope' } },
      { id: 'rec_other' },
      { title: ['x'] },
    ]) {
      const res = await app.api(ws.apiKey, 'PATCH', `/api/v1/records/${id}`, body);
      expectContractError(res, 400, 'VALIDATION_FAILED');
    }
    const after = await app.api(ws.apiKey, 'GET', `/api/v1/records/${id}`);
    expect(after.body.data).toEqual(created.body.data);
  });

  it('answers 404 for ids of the wrong shape or prefix, and 400 for bad query values', async () => {
    for (const id of ['nope', 'fld_01m7yajqape00a5jqksd4af06w', 'rec_', `rec_${'z'.repeat(26)}`, '%20']) {
      expectContractError(await app.api(ws.apiKey, 'GET', `/api/v1/records/${id}`), 404, 'NOT_FOUND');
    }
    expectContractError(
      await app.api(ws.apiKey, 'GET', '/api/v1/records?page=abc'),
      400,
      'VALIDATION_FAILED',
    );
    expectContractError(
      await app.api(ws.apiKey, 'GET', '/api/v1/records?updatedSince=yesterday'),
      400,
      'VALIDATION_FAILED',
    );
    expectContractError(
      await app.api(ws.apiKey, 'GET', '/api/v1/records?trashed=yes'),
      400,
      'VALIDATION_FAILED',
    );
    expectContractError(
      await app.api(ws.apiKey, 'GET', '/api/v1/records?colour=red'),
      400,
      'VALIDATION_FAILED',
    );
    expectContractError(
      await app.api(ws.apiKey, 'GET', '/api/v1/records?cursor=garbage'),
      400,
      'VALIDATION_FAILED',
    );
  });
});

/** A JSON text nested `levels` deep: `{"a":{"a":…1…}}`. */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

function expectDetailPaths(res: { status: number; body: unknown; text: string }, paths: string[]) {
  expectContractError(res, 400, 'VALIDATION_FAILED');
  const details = (res.body as { error: { details?: { path: string }[] } }).error.details ?? [];
  expect(details.map((d) => d.path)).toEqual(paths);
}

describe('input PostgreSQL cannot store, or JavaScript cannot carry, is a 400 naming its path', () => {
  const post = (body: unknown, path = '/api/v1/records') => app.api(ws.apiKey, 'POST', path, body);

  it('answers query keys named like Object.prototype members with a 400, on GET and POST', async () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
      for (const value of ['', 'x']) {
        const list = await app.api(ws.apiKey, 'GET', `/api/v1/records?${key}=${value}`);
        expectDetailPaths(list, [key]);
        const one = await app.api(ws.apiKey, 'GET', `/api/v1/folders/${ws.folderId}?${key}=${value}`);
        expectDetailPaths(one, [key]);
        const before = await recordCount();
        const created = await app.api(ws.apiKey, 'POST', `/api/v1/records?${key}=${value}`, {
          folderId: ws.folderId,
          title: 'x',
        });
        expectDetailPaths(created, [key]);
        expect(await recordCount()).toBe(before);
      }
    }
    // Declared query parameters still work.
    const upsert = await app.api(ws.apiKey, 'POST', '/api/v1/records?upsert=email', {
      folderId: ws.folderId,
      title: 'Upserted',
      email: 'upserted@example.com',
    });
    expect(upsert.status).toBe(201);
  });

  it('refuses NUL in a body value, a body key, a nested value and a query value', async () => {
    const before = await recordCount();
    expectDetailPaths(await post({ folderId: ws.folderId, title: 'a\u0000b' }), ['title']);
    const res = await post({ folderId: ws.folderId, title: 'x', data: { 'comp\u0000any': 'Acme' } });
    expectDetailPaths(res, ['data.comp\\u0000any']);
    expect(res.body.error.details[0].message).toBe('must not contain the NUL character (\\u0000) in a key');
    const pipelineId = (await app.api(ws.apiKey, 'GET', '/api/v1/pipelines')).body.data[0].id;
    expectDetailPaths(await post({ pipelineId, data: { notes: ['ok', 'x\u0000'] } }, '/api/v1/deals'), [
      'data.notes.1',
    ]);
    expectDetailPaths(await app.api(ws.apiKey, 'GET', '/api/v1/records?search=a%00b'), ['search']);
    expectDetailPaths(await app.api(ws.apiKey, 'GET', '/api/v1/records?a%00b=1'), ['a\\u0000b']);
    expect(await recordCount()).toBe(before);
  });

  it('refuses lone UTF-16 surrogates in values and keys', async () => {
    const before = await recordCount();
    const value = await post(`{"folderId":"${ws.folderId}","title":"a\\ud800b"}`);
    expectDetailPaths(value, ['title']);
    expect(value.body.error.details[0].message).toContain('lone UTF-16 surrogate');
    expectDetailPaths(await post(`{"folderId":"${ws.folderId}","title":"x","data":{"\\udc00":1}}`), [
      'data.\\udc00',
    ]);
    // A well-formed pair is a character like any other.
    const pair = await post(`{"folderId":"${ws.folderId}","title":"a\\ud83d\\ude00b"}`);
    expect(pair.status, pair.text).toBe(201);
    expect(pair.body.data.title).toBe('a😀b');
    expect(await recordCount()).toBe(before + 1);
  });

  it('accepts 64 levels of nesting and refuses more, up to 20,000 levels', async () => {
    const pipelineId = (await app.api(ws.apiKey, 'GET', '/api/v1/pipelines')).body.data[0].id;
    // The body is level 1 and data level 2: data holding 62 more levels makes 64.
    const deal = (levels: number) => `{"pipelineId":"${pipelineId}","data":${nestedJson(levels)}}`;
    const ok = await post(deal(63), '/api/v1/deals');
    expect(ok.status, ok.text).toBe(201);
    const tooDeep = await post(deal(64), '/api/v1/deals');
    expectDetailPaths(tooDeep, [['data', ...Array(63).fill('a')].join('.')]);
    expect(tooDeep.body.error.details[0].message).toBe('nests deeper than 64 levels of objects and arrays');
    for (const levels of [1_000, 20_000]) {
      expectContractError(await post(deal(levels), '/api/v1/deals'), 400, 'VALIDATION_FAILED');
      const array = `{"folderId":"${ws.folderId}","title":${'['.repeat(levels)}${']'.repeat(levels)}}`;
      expectContractError(await post(array), 400, 'VALIDATION_FAILED');
    }
  });

  it('refuses numbers too large to carry (1e400 parses to Infinity)', async () => {
    const pipelineId = (await app.api(ws.apiKey, 'GET', '/api/v1/pipelines')).body.data[0].id;
    expectDetailPaths(await post(`{"pipelineId":"${pipelineId}","data":{"n":1e400}}`, '/api/v1/deals'), [
      'data.n',
    ]);
  });

  it('refuses data.__proto__ on create and update instead of dropping it', async () => {
    const before = await recordCount();
    const body = `{"folderId":"${ws.folderId}","title":"x","data":{"__proto__":{"company":"Acme"}}}`;
    expectDetailPaths(await post(body), ['data.__proto__']);
    expectDetailPaths(await post(`{"__proto__":{"title":"x"},"folderId":"${ws.folderId}"}`), ['__proto__']);
    expect(await recordCount()).toBe(before);
    const created = await post({ folderId: ws.folderId, title: 'Keep me', data: { company: 'Acme' } });
    const id = created.body.data.id;
    const patch = await app.api(ws.apiKey, 'PATCH', `/api/v1/records/${id}`, '{"data":{"__proto__":null}}');
    expectDetailPaths(patch, ['data.__proto__']);
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/records/${id}`)).body.data).toEqual(created.body.data);
  });

  it('refuses the same on /trpc, for mutations and ?input= queries', async () => {
    const trpc = (method: string, path: string, body?: string) =>
      fetch(`${app.url}/trpc/${path}`, {
        method,
        headers: { Authorization: `Bearer ${ws.apiKey}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
    const mutation = await trpc('POST', 'folders.create', '{"name":"a\\u0000"}');
    expect(mutation.status).toBe(400);
    const error = ((await mutation.json()) as { error: { data: { error: unknown } } }).error.data.error;
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'name', message: 'must not contain the NUL character (\\u0000)' }],
    });
    const deepMutation = await trpc('POST', 'folders.create', `{"name":${nestedJson(20_000)}}`);
    expect(deepMutation.status).toBe(400);
    // 1,000 levels: a URL of 20,000 would be longer than Node accepts (431).
    const input = encodeURIComponent(`{"search":${'['.repeat(1_000)}${']'.repeat(1_000)}}`);
    const query = await trpc('GET', `records.list?input=${input}`);
    expect(query.status).toBe(400);
    const surrogate = await trpc('GET', `records.list?input=${encodeURIComponent('{"search":"\\ud800"}')}`);
    expect(surrogate.status).toBe(400);
  });

  it('gives /trpc errors raised before the call has a context the request id too', async () => {
    const refusals = [
      // A body tRPC cannot read, and a refused key: both fail before the context exists.
      fetch(`${app.url}/trpc/folders.create`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: 'x',
      }),
      fetch(`${app.url}/trpc/folders.list`, { headers: { Authorization: 'Bearer crm_nope' } }),
    ];
    for (const res of await Promise.all(refusals)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      const body = (await res.json()) as { error: { data: { error: { requestId: string } } } };
      expect(body.error.data.error.requestId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('refuses it on the sign-in route', async () => {
    const res = await app.api(
      null,
      'POST',
      '/auth/sign-in',
      '{"email":"a@example.com\\u0000","password":"x"}',
    );
    expectDetailPaths(res, ['email']);
  });

  it('refuses it on a trigger URL, before any run is queued', async () => {
    const created = await post(
      {
        name: 'Web form',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [{ type: 'CREATE_RECORD', folderId: ws.folderId, title: '{{ trigger.body.name }}' }],
      },
      '/api/v1/workflows',
    );
    expect(created.status, created.text).toBe(201);
    const path = new URL(created.body.data.trigger.url).pathname;
    const runs = async () =>
      (
        await app.service.db.execute<{ n: number }>(
          sql`select count(*)::int as n from workflow_runs where workflow_id = ${created.body.data.id}`,
        )
      ).rows[0]!.n;
    const cases: [string, string][] = [
      ['{"name":"a\\u0000"}', 'name'],
      ['{"name":"\\ud800"}', 'name'],
      ['{"a\\u0000":1}', 'a\\u0000'],
      ['{"__proto__":{"name":"x"}}', '__proto__'],
      [`{"nested":${nestedJson(20_000)}}`, ['nested', ...Array(63).fill('a')].join('.')],
    ];
    for (const [body, path_] of cases) {
      const res = await app.api(null, 'POST', path, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({
        ok: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: expect.any(String),
          details: [{ path: path_, message: expect.any(String) }],
          requestId: res.headers.get('x-request-id'),
        },
      });
    }
    expect(await runs()).toBe(0);
    expect((await app.api(null, 'POST', path, { name: 'Ada' })).status).toBe(200);
    expect(await runs()).toBe(1);
  });
});
