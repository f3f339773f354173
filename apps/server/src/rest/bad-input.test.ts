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

describe('bad input gets the contract error and writes nothing', () => {
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
