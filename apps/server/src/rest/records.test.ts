import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
});
afterAll(() => app?.stop());

describe('records over REST', () => {
  it('creates with 201 and reads it back in the envelope', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/records', {
      folderId: ws.folderId,
      title: 'Ada Lovelace',
      email: 'ada@example.com',
      data: { company: 'Analytical Engines', lifecycle: 'Lead' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Ada Lovelace', folderId: ws.folderId, trashedAt: null });
    expect(created.body.data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const got = await app.api(ws.apiKey, 'GET', `/api/v1/records/${created.body.data.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: created.body.data });
  });
});
