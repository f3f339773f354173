import type { AppRouter } from '@crm/api';
import { setPassword } from '@crm/domain';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * `views.*` over HTTP (docs/web-app.md, "Saved views"): tRPC only, for a signed-in user, each
 * user's own; a definition the records list would refuse is a 400 naming each problem.
 */

const PASSWORD = 'a long enough password';
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

async function signedIn(ws: TestWorkspace) {
  const rows = await app.service.pool.query<{ email: string }>('select email from users where id = $1', [
    ws.userId,
  ]);
  await setPassword(app.service.db, rows.rows[0]!.email, PASSWORD);
  const res = await fetch(`${app.url}/auth/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: rows.rows[0]!.email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const { data } = (await res.json()) as { data: { csrfToken: string } };
  return client({ Cookie: cookie, 'X-CSRF-Token': data.csrfToken });
}

function client(headers: Record<string, string>) {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.url}/trpc`, headers })] });
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return (error as TRPCClientError<AppRouter>).data as unknown as {
    httpStatus: number;
    error: { code: string; message: string; details?: { path: string; message: string }[] };
  };
}

const definition = {
  columns: ['title', 'email', 'data.lifecycle'],
  sort: '-updatedAt',
  filters: [{ field: 'data.lifecycle', op: 'eq' as const, value: 'Customer' }],
};

describe('views over tRPC', () => {
  it('keeps a signed-in user’s views and shows them to that user only', async () => {
    const ws = await app.createWorkspace();
    const owner = await signedIn(ws);
    const created = await owner.views.create.mutate({ folderId: ws.folderId, name: 'Customers', definition });
    expect(created.data).toMatchObject({ folderId: ws.folderId, name: 'Customers', definition });
    const listed = await owner.views.list.query({ folderId: ws.folderId });
    expect(listed.data.map((v) => v.id)).toEqual([created.data.id]);

    // Another workspace's owner sees nothing of it, and cannot reach it by id.
    const other = await app.createWorkspace();
    const stranger = await signedIn(other);
    expect((await stranger.views.list.query({ folderId: other.folderId })).data).toEqual([]);
    const hidden = await refusal(stranger.views.delete.mutate({ id: created.data.id }));
    expect(hidden).toMatchObject({ httpStatus: 404, error: { code: 'NOT_FOUND' } });
    const foreignFolder = await refusal(stranger.views.list.query({ folderId: ws.folderId }));
    expect(foreignFolder.httpStatus).toBe(400);

    expect((await owner.views.delete.mutate({ id: created.data.id })).data).toEqual({
      id: created.data.id,
      deleted: true,
    });
  });

  it('answers 400 with a detail per problem of a definition', async () => {
    const ws = await app.createWorkspace();
    const owner = await signedIn(ws);
    const refused = await refusal(
      owner.views.create.mutate({
        folderId: ws.folderId,
        name: 'Bad',
        definition: {
          columns: ['title', 'salary'],
          sort: 'phone',
          filters: [{ field: 'data.lifecycle', op: 'gt', value: 'Lead' }],
        },
      }),
    );
    expect(refused.httpStatus).toBe(400);
    expect(refused.error.code).toBe('VALIDATION_FAILED');
    expect(refused.error.details).toEqual([
      {
        path: 'definition.columns.1',
        message:
          'salary is not a column of this folder; use title, email, phone, ownerId, createdAt, updatedAt or data.<key> of one of its fields',
      },
      { path: 'definition.sort', message: expect.stringMatching(/^cannot sort by phone/) },
      { path: 'definition.filters.0', message: expect.stringMatching(/^data.lifecycle gt: /) },
    ]);
    // The shape itself is checked first, as every input is.
    const shape = await refusal(
      owner.views.create.mutate({
        folderId: ws.folderId,
        name: ' ',
        definition: { columns: [], sort: null, filters: [] },
      }),
    );
    expect(shape.httpStatus).toBe(400);
    expect(shape.error.details?.map((d) => d.path).sort()).toEqual(['definition.columns', 'name']);
  });

  it('is not open to API keys, nor on the REST API', async () => {
    const ws = await app.createWorkspace();
    const withKey = client({ Authorization: `Bearer ${ws.apiKey}` });
    const refused = await refusal(withKey.views.list.query({ folderId: ws.folderId }));
    expect(refused).toMatchObject({ httpStatus: 403, error: { code: 'FORBIDDEN' } });
    const rest = await app.api(ws.apiKey, 'GET', '/api/v1/views');
    expect(rest.status).toBe(404);
  });
});
