import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
});
afterAll(() => app?.stop());

const INSTANT_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function createRecord(body: Record<string, unknown>) {
  const res = await app.api(ws.apiKey, 'POST', '/api/v1/records', { folderId: ws.folderId, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

describe('records over REST', () => {
  it('creates with 201 and reads it back in the envelope', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'Ada Lovelace',
      email: 'ada@example.com',
      data: { company: 'Analytical Engines', lifecycle: 'Lead' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      title: 'Ada Lovelace',
      folderId: ws.folderId,
      trashedAt: null,
      phone: null,
    });
    expect(created.body.data.createdAt).toMatch(INSTANT_MS);
    expect(created.body.data.updatedAt).toMatch(INSTANT_MS);
    const got = await app.api(ws.apiKey, 'GET', `/api/v1/records/${created.body.data.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: created.body.data });
  });

  it('merges data on PATCH: given keys replace, null removes, others and top-level fields stay', async () => {
    const record = await createRecord({
      title: 'Grace',
      phone: '+1 555 0100',
      data: { company: 'Navy', lifecycle: 'Lead' },
    });
    const patched = await app.api(ws.apiKey, 'PATCH', `/api/v1/records/${record.id}`, {
      data: { lifecycle: 'Customer', company: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      title: 'Grace',
      phone: '+1 555 0100',
      data: { lifecycle: 'Customer' },
    });
    expect(patched.body.data.data).not.toHaveProperty('company');
    expect(Date.parse(patched.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(record.updatedAt));
  });

  it('moves a record to Trash on DELETE, hides it, lists it under trashed=true and restores it', async () => {
    const record = await createRecord({ title: 'Trash me' });
    const deleted = await app.api(ws.apiKey, 'DELETE', `/api/v1/records/${record.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.trashedAt).toMatch(INSTANT_MS);
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/records/${record.id}`)).status).toBe(404);
    expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/records/${record.id}`)).status).toBe(404);
    expect((await app.api(ws.apiKey, 'PATCH', `/api/v1/records/${record.id}`, { title: 'x' })).status).toBe(
      404,
    );
    const live = await app.api(ws.apiKey, 'GET', '/api/v1/records?pageSize=200');
    expect(live.body.data.map((r: { id: string }) => r.id)).not.toContain(record.id);
    const trash = await app.api(ws.apiKey, 'GET', '/api/v1/records?trashed=true');
    expect(trash.body.data.map((r: { id: string }) => r.id)).toContain(record.id);
    const restored = await app.api(ws.apiKey, 'POST', `/api/v1/records/${record.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data.trashedAt).toBeNull();
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/records/${record.id}`)).status).toBe(200);
    const again = await app.api(ws.apiKey, 'POST', `/api/v1/records/${record.id}/restore`);
    expect(again.status).toBe(200);
    expect(again.body.data.updatedAt).toBe(restored.body.data.updatedAt);
  });

  it('upserts by email from the query string: 200 for an update, 201 for a new record', async () => {
    const first = await app.api(ws.apiKey, 'POST', '/api/v1/records?upsert=email', {
      folderId: ws.folderId,
      title: 'Linus',
      email: 'linus@upsert.example',
    });
    expect(first.status).toBe(201);
    const second = await app.api(ws.apiKey, 'POST', '/api/v1/records?upsert=email', {
      folderId: ws.folderId,
      title: 'Linus T.',
      email: 'LINUS@upsert.example',
      data: { company: 'Kernel' },
    });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({
      id: first.body.data.id,
      title: 'Linus T.',
      data: { company: 'Kernel' },
    });
    const inBody = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'x',
      email: 'x@upsert.example',
      upsert: 'email',
    });
    expect(inBody.status).toBe(400);
    expect(inBody.body.error.details[0].path).toBe('upsert');
  });

  it('filters by text given as search or q, by folder and by updatedSince, newest first', async () => {
    const marker = `zq${Date.now().toString(36)}`;
    const a = await createRecord({ title: `Alpha ${marker}` });
    const b = await createRecord({ title: 'Beta', data: { company: `${marker.toUpperCase()} Ltd` } });
    await createRecord({ title: 'Gamma unrelated' });
    for (const param of ['search', 'q']) {
      const res = await app.api(ws.apiKey, 'GET', `/api/v1/records?${param}=${marker}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([b.id, a.id]);
      expect(res.body.meta).toEqual({
        page: 1,
        pageSize: 50,
        hasMore: false,
        nextCursor: null,
        nextUrl: null,
      });
    }
    const conflict = await app.api(ws.apiKey, 'GET', `/api/v1/records?search=${marker}&q=other`);
    expect(conflict.status).toBe(400);
    const since = await app.api(
      ws.apiKey,
      'GET',
      `/api/v1/records?updatedSince=${encodeURIComponent(b.updatedAt)}`,
    );
    expect(since.body.data.map((r: { id: string }) => r.id)).toContain(b.id);
    expect(since.body.data.map((r: { id: string }) => r.id)).not.toContain(a.id);
    const folder = await app.api(ws.apiKey, 'GET', `/api/v1/records?folderId=${ws.folderId}&q=${marker}`);
    expect(folder.body.data).toHaveLength(2);
    const unknownFolder = await app.api(ws.apiKey, 'GET', '/api/v1/records?folderId=fld_nope');
    expect(unknownFolder.status).toBe(404);
  });

  it('pages with page and with cursor', async () => {
    const marker = `pg${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await createRecord({ title: `${marker} ${i}` })).id);
    const page2 = await app.api(ws.apiKey, 'GET', `/api/v1/records?q=${marker}&pageSize=2&page=2`);
    expect(page2.body.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(2, 4));
    expect(page2.body.meta).toMatchObject({ page: 2, pageSize: 2, hasMore: true });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await app.api(ws.apiKey, 'GET', `/api/v1/records?q=${marker}&pageSize=2${query}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((r: { id: string }) => r.id));
      cursor = res.body.meta.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    const both = await app.api(ws.apiKey, 'GET', `/api/v1/records?page=1&cursor=abc`);
    expect(both.status).toBe(400);
    const tooBig = await app.api(ws.apiKey, 'GET', '/api/v1/records?pageSize=201');
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.message).toContain('200');
  });
});

describe('folders over REST', () => {
  it('creates a folder, adds, changes and removes fields, and validates records against them', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/folders', {
      name: 'Companies',
      fields: [{ key: 'size', label: 'Size', type: 'NUMBER' }],
    });
    expect(created.status).toBe(201);
    const folderId = created.body.data.id;
    expect(created.body.data).toMatchObject({
      name: 'Companies',
      type: 'CUSTOM',
      fields: [{ key: 'size', type: 'NUMBER' }],
    });
    const added = await app.api(ws.apiKey, 'POST', `/api/v1/folders/${folderId}/fields`, {
      key: 'tier',
      label: 'Tier',
      type: 'SELECT',
      options: ['Gold', 'Silver'],
    });
    expect(added.status).toBe(201);
    const bad = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId,
      title: 'Co',
      data: { size: 'big', tier: 'Bronze' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'data.size',
      'data.tier',
    ]);
    const ok = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId,
      title: 'Co',
      data: { size: 12, tier: 'Gold' },
    });
    expect(ok.status).toBe(201);
    const narrowed = await app.api(ws.apiKey, 'PATCH', `/api/v1/folders/${folderId}/fields/tier`, {
      options: ['Silver'],
    });
    expect(narrowed.status).toBe(400);
    const relabeled = await app.api(ws.apiKey, 'PATCH', `/api/v1/folders/${folderId}/fields/tier`, {
      label: 'Level',
    });
    expect(relabeled.body.data.fields[1]).toEqual({
      key: 'tier',
      label: 'Level',
      type: 'SELECT',
      options: ['Gold', 'Silver'],
    });
    const renamed = await app.api(ws.apiKey, 'PATCH', `/api/v1/folders/${folderId}`, { name: 'Accounts' });
    expect(renamed.body.data.name).toBe('Accounts');
    const removed = await app.api(ws.apiKey, 'DELETE', `/api/v1/folders/${folderId}/fields/tier`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.fields.map((f: { key: string }) => f.key)).toEqual(['size']);
    const record = await app.api(ws.apiKey, 'GET', `/api/v1/records/${ok.body.data.id}`);
    expect(record.body.data.data).toEqual({ size: 12 });
    const list = await app.api(ws.apiKey, 'GET', '/api/v1/folders');
    expect(list.body.data.map((f: { id: string }) => f.id)).toContain(folderId);
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/folders/${folderId}`)).body.data.name).toBe('Accounts');
    expect((await app.api(ws.apiKey, 'DELETE', `/api/v1/folders/${folderId}/fields/nope`)).status).toBe(404);
  });
});
