import type { AppRouter } from '@crm/api';
import { createApiKey } from '@crm/domain';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
});
afterAll(() => app?.stop());

function client(key: string | null) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({ url: `${app.url}/trpc`, headers: () => (key ? { Authorization: `Bearer ${key}` } : {}) }),
    ],
  });
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCClientError) return error as TRPCClientError<AppRouter>;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('the tRPC surface behaves like REST', () => {
  it('creates, reads, updates, trashes and restores the same records', async () => {
    const trpc = client(ws.apiKey);
    const created = await trpc.records.create.mutate({
      folderId: ws.folderId,
      title: 'Via tRPC',
      data: { company: 'RPC' },
    });
    const viaRest = await app.api(ws.apiKey, 'GET', `/api/v1/records/${created.data.id}`);
    expect(viaRest.body).toEqual(created);
    const restCreated = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'Via REST',
    });
    expect(await trpc.records.get.query({ id: restCreated.body.data.id })).toEqual(restCreated.body);
    const updated = await trpc.records.update.mutate({
      id: created.data.id,
      data: { lifecycle: 'Lead', company: null },
    });
    expect(updated.data.data).toEqual({ lifecycle: 'Lead' });
    const list = await trpc.records.list.query({ q: 'via', pageSize: 10 });
    const restList = await app.api(ws.apiKey, 'GET', '/api/v1/records?q=via&pageSize=10');
    expect(list).toEqual(restList.body);
    await trpc.records.trash.mutate({ id: created.data.id });
    const gone = await failure(trpc.records.get.query({ id: created.data.id }));
    expect(gone.data?.code).toBe('NOT_FOUND');
    await trpc.records.restore.mutate({ id: created.data.id });
    expect((await trpc.records.get.query({ id: created.data.id })).data.trashedAt).toBeNull();
  });

  it('reports validation errors with the same details as REST', async () => {
    const trpc = client(ws.apiKey);
    const input = { folderId: ws.folderId, title: 'x', data: { lifecycle: 'Nope' } };
    const error = await failure(trpc.records.create.mutate(input));
    const rest = await app.api(ws.apiKey, 'POST', '/api/v1/records', input);
    expect(error.data?.httpStatus).toBe(400);
    const domain = (error.data as unknown as { error: { code: string; details: unknown } }).error;
    expect(domain.code).toBe('VALIDATION_FAILED');
    expect(domain.details).toEqual(rest.body.error.details);
    const unknownKey = await failure(trpc.records.create.mutate({ ...input, colour: 'red' } as never));
    expect(unknownKey.data?.httpStatus).toBe(400);
  });

  it('refuses a missing key (401) and a read-only key on a mutation (403), like REST', async () => {
    const anonymous = await failure(client(null).folders.list.query({}));
    expect(anonymous.data?.httpStatus).toBe(401);
    const { secret } = await createApiKey(app.service.db, {
      workspaceId: ws.workspaceId,
      userId: ws.userId,
      name: 'read only',
      scopes: ['read'],
    });
    const readOnly = client(secret);
    expect((await readOnly.folders.list.query({})).data.length).toBeGreaterThan(0);
    const forbidden = await failure(readOnly.records.create.mutate({ folderId: ws.folderId, title: 'nope' }));
    expect(forbidden.data?.httpStatus).toBe(403);
    const rest = await app.api(secret, 'POST', '/api/v1/records', { folderId: ws.folderId, title: 'nope' });
    expect(rest.status).toBe(403);
    expect(rest.body.error.code).toBe('FORBIDDEN');
  });

  it("hides another workspace's records", async () => {
    const other = await app.createWorkspace();
    const theirs = await client(other.apiKey).records.create.mutate({
      folderId: other.folderId,
      title: 'Theirs',
    });
    const error = await failure(client(ws.apiKey).records.get.query({ id: theirs.data.id }));
    expect(error.data?.httpStatus).toBe(404);
  });

  it('manages webhook subscriptions like REST, showing the secret only on create', async () => {
    const trpc = client(ws.apiKey);
    const created = await trpc.webhooks.create.mutate({
      url: 'http://127.0.0.1:9/hook',
      events: ['record.created'],
    });
    expect(created.data.secret).toMatch(/^whsec_/);
    const viaRest = await app.api(ws.apiKey, 'GET', `/api/v1/webhooks/${created.data.id}`);
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.data).not.toHaveProperty('secret');
    const refused = await failure(trpc.webhooks.create.mutate({ url: 'http://10.0.0.1/', events: ['*'] }));
    expect(refused.data?.httpStatus).toBe(400);
  });
});
