import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let a: TestWorkspace;
let b: TestWorkspace;
let recordA: { id: string };
let trashedA: { id: string };
let folderA: { id: string };

beforeAll(async () => {
  app = await startTestApp();
  a = await app.createWorkspace({ name: 'A' });
  b = await app.createWorkspace({ name: 'B' });
  recordA = (
    await app.api(a.apiKey, 'POST', '/api/v1/records', { folderId: a.folderId, title: 'Secret of A' })
  ).body.data;
  trashedA = (
    await app.api(a.apiKey, 'POST', '/api/v1/records', { folderId: a.folderId, title: 'Trash of A' })
  ).body.data;
  await app.api(a.apiKey, 'DELETE', `/api/v1/records/${trashedA.id}`);
  folderA = (await app.api(a.apiKey, 'POST', '/api/v1/folders', { name: 'Private of A' })).body.data;
});
afterAll(() => app?.stop());

describe('tenant isolation', () => {
  it('answers 404 to workspace B for every id of workspace A', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/v1/records/${recordA.id}`],
      ['PATCH', `/api/v1/records/${recordA.id}`, { title: 'hijacked' }],
      ['DELETE', `/api/v1/records/${recordA.id}`],
      ['POST', `/api/v1/records/${trashedA.id}/restore`],
      ['GET', `/api/v1/folders/${folderA.id}`],
      ['GET', `/api/v1/folders/${a.folderId}`],
      ['PATCH', `/api/v1/folders/${folderA.id}`, { name: 'hijacked' }],
      ['POST', `/api/v1/folders/${folderA.id}/fields`, { key: 'x', label: 'X', type: 'TEXT' }],
      ['PATCH', `/api/v1/folders/${a.folderId}/fields/company`, { label: 'hijacked' }],
      ['DELETE', `/api/v1/folders/${a.folderId}/fields/company`],
      ['GET', `/api/v1/records?folderId=${a.folderId}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await app.api(b.apiKey, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const intoA = await app.api(b.apiKey, 'POST', '/api/v1/records', { folderId: a.folderId, title: 'x' });
    expect(intoA.status).toBe(400);
    const stillThere = await app.api(a.apiKey, 'GET', `/api/v1/records/${recordA.id}`);
    expect(stillThere.body.data.title).toBe('Secret of A');
    const folder = await app.api(a.apiKey, 'GET', `/api/v1/folders/${a.folderId}`);
    expect(folder.body.data.fields.map((f: { key: string }) => f.key)).toEqual(['company', 'lifecycle']);
  });

  it("never lists workspace A's rows to workspace B", async () => {
    const lists = [
      '/api/v1/records?pageSize=200',
      '/api/v1/records?trashed=true',
      '/api/v1/records?q=Secret',
      '/api/v1/folders?pageSize=200',
    ];
    for (const path of lists) {
      const res = await app.api(b.apiKey, 'GET', path);
      expect(res.status).toBe(200);
      const ids = res.body.data.map((row: { id: string }) => row.id);
      expect(ids).not.toContain(recordA.id);
      expect(ids).not.toContain(trashedA.id);
      expect(ids).not.toContain(folderA.id);
      expect(ids).not.toContain(a.folderId);
    }
  });
});
