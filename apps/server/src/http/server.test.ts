import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace();
});
afterAll(() => app?.stop());

describe('HTTP basics', () => {
  it('answers an unknown path with 404 in the REST error body', async () => {
    for (const path of ['/api/v1/nothing', '/api/v1/records/x/y/z', '/nowhere']) {
      const res = await app.api(ws.apiKey, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', requestId: res.headers.get('x-request-id') });
    }
  });

  it('answers what the HTTP parser refuses (a URL over 16 KiB, a malformed request) in the REST error body', async () => {
    const res = await app.api(ws.apiKey, 'GET', `/api/v1/records?q=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      requestId: res.headers.get('x-request-id'),
    });
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(app.url).port), '127.0.0.1', () =>
        socket.write('NOT HTTP\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).error.code).toBe('VALIDATION_FAILED');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await app.api(ws.apiKey, 'PUT', '/api/v1/records/rec_x', { title: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    const health = await app.api(null, 'POST', '/healthz');
    expect(health.status).toBe(405);
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const echoed = await app.api(ws.apiKey, 'GET', '/api/v1/folders', undefined, {
      'X-Request-Id': 'client-123',
    });
    expect(echoed.headers.get('x-request-id')).toBe('client-123');
    const replaced = await app.api(ws.apiKey, 'GET', '/api/v1/folders', undefined, {
      'X-Request-Id': 'bad id with spaces',
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const error = await app.api(null, 'GET', '/api/v1/records', undefined, { 'X-Request-Id': 'err-1' });
    expect(error.body.error.requestId).toBe('err-1');
  });

  it('requires a bearer key everywhere but the OpenAPI document', async () => {
    for (const auth of [undefined, 'Bearer', 'Bearer crm_unknown', 'Basic abc', `Token ${ws.apiKey}`]) {
      const res = await fetch(`${app.url}/api/v1/records`, { headers: auth ? { Authorization: auth } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    }
    const doc = await app.api(null, 'GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
  });

  it('reports liveness and readiness', async () => {
    expect((await app.api(null, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await app.api(null, 'GET', '/readyz')).status).toBe(200);
  });
});
