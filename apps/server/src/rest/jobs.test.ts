import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp({ worker: true, env: { WORKER_POLL_INTERVAL_MS: '100' } });
  // Jobs are followed by polling, faster than the default limit of 120 requests a minute allows.
  ws = await app.createWorkspace({ rateLimitPerMinute: 100_000 });
});
afterAll(() => app?.stop());

/** Polls `GET /jobs/{id}` until the job has ended (bounded). */
async function ended(id: string) {
  for (let turn = 0; turn < 300; turn++) {
    const res = await app.api(ws.apiKey, 'GET', `/api/v1/jobs/${id}`);
    expect(res.status, res.text).toBe(200);
    if (['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(res.body.data.status)) return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${id} did not end`);
}

/** A raw request: the file routes take and answer bodies that are not JSON. */
async function raw(method: string, path: string, body?: string | Buffer, contentType?: string) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${ws.apiKey}`,
      ...(contentType ? { 'Content-Type': contentType } : {}),
    },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('jobs over REST', () => {
  it('imports a CSV through a job, then exports the folder through another, round trip', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/jobs/imports', {
      folderId: ws.folderId,
      format: 'csv',
      mapping: { Name: 'title', Email: 'email', Company: 'data.company' },
      upsertBy: 'email',
    });
    expect(created.status, created.text).toBe(201);
    const job = created.body.data;
    expect(created.headers.get('location')).toMatch(new RegExp(`/api/v1/jobs/${job.id}$`));
    expect(job).toMatchObject({ type: 'IMPORT', status: 'AWAITING_FILE', uploadUrl: `/jobs/${job.id}/file` });

    const lines = ['Name,Email,Company'];
    for (let i = 1; i <= 250; i++) lines.push(`"Lovelace, ${i}",ada${i}@example.com,Engines ${i % 3}`);
    lines.push('No email,not-an-email,X');
    const wrongType = await raw('PUT', `/api/v1${job.uploadUrl}`, lines.join('\n'), 'application/json');
    expect(wrongType.status, wrongType.text).toBe(415);
    const put = await raw('PUT', `/api/v1${job.uploadUrl}`, lines.join('\n'), 'text/csv');
    expect(put.status, put.text).toBe(202);
    expect(JSON.parse(put.text).data).toMatchObject({ status: 'QUEUED', progress: { total: 251 } });
    const again = await raw('PUT', `/api/v1${job.uploadUrl}`, lines.join('\n'), 'text/csv');
    expect(again.status, again.text).toBe(409);

    const done = await ended(job.id);
    expect(done).toMatchObject({
      status: 'SUCCEEDED',
      progress: { rowsRead: 251, created: 250, refused: 1 },
    });
    const results = await raw('GET', `/api/v1/jobs/${job.id}/results`);
    expect(results.status).toBe(200);
    expect(results.headers.get('content-type')).toBe('application/x-ndjson');
    const resultLines = results.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(resultLines).toHaveLength(251);
    expect(resultLines[250]).toMatchObject({ row: 251, status: 'refused', recordId: null });

    const exported = await app.api(ws.apiKey, 'POST', '/api/v1/jobs/exports', {
      folderId: ws.folderId,
      format: 'csv',
      sort: 'title',
      filter: { field: 'data.company', op: 'eq', value: 'Engines 1' },
    });
    expect(exported.status, exported.text).toBe(201);
    const early = await raw('GET', `/api/v1/jobs/${exported.body.data.id}/file`);
    expect([200, 409]).toContain(early.status);
    const exportDone = await ended(exported.body.data.id);
    expect(exportDone).toMatchObject({ status: 'SUCCEEDED', progress: { rowsRead: 84, total: 84 } });
    expect(exportDone.fileUrl).toBe(`/jobs/${exportDone.id}/file`);
    const file = await raw('GET', `/api/v1${exportDone.fileUrl}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv');
    const rows = file.text.trim().split('\r\n');
    expect(rows[0]).toBe('id,title,email,phone,ownerId,createdAt,updatedAt,company,lifecycle');
    expect(rows).toHaveLength(85);
    expect(rows[1]).toMatch(/^rec_[0-9a-z]{26},"Lovelace, 1",ada1@example.com,,/);

    const listed = await app.api(ws.apiKey, 'GET', '/api/v1/jobs?type=EXPORT');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((j: { id: string }) => j.id)).toEqual([exportDone.id]);
    const cancelEnded = await app.api(ws.apiKey, 'POST', `/api/v1/jobs/${exportDone.id}/cancel`);
    expect(cancelEnded.status).toBe(409);
  });

  it('refuses a bad file with a message naming the row, and keeps the job awaiting its file', async () => {
    const created = await app.api(ws.apiKey, 'POST', '/api/v1/jobs/imports', {
      folderId: ws.folderId,
      format: 'csv',
      mapping: { Name: 'title' },
    });
    const id = created.body.data.id;
    const put = await raw('PUT', `/api/v1/jobs/${id}/file`, 'Name\nA\nB,C\n', 'text/csv');
    expect(put.status, put.text).toBe(400);
    expect(JSON.parse(put.text).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: "Row 2 (line 3) has 2 columns, more than the header's 1",
    });
    const job = await app.api(ws.apiKey, 'GET', `/api/v1/jobs/${id}`);
    expect(job.body.data.status).toBe('AWAITING_FILE');
    const unknownField = await app.api(ws.apiKey, 'POST', '/api/v1/jobs/imports', {
      folderId: ws.folderId,
      format: 'csv',
      mapping: { Name: 'title', X: 'data.nope' },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.details).toEqual([
      { path: 'mapping.X', message: 'the folder has no field nope' },
    ]);
  });
});
