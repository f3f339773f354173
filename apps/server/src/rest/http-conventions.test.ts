import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { appRouter, collectRestRoutes, conditionalTwin, type RestRoute } from '@crm/api';
import { FEED_SETTLE_SECONDS, runJob } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';
import { chooseEncoding, parseEntityTags } from './http-conventions.ts';

/**
 * The HTTP conventions of /api/v1 (docs/api.md, "HTTP conventions"), checked on every route
 * of the route table: OPTIONS and HEAD, CORS, compression, ETag with If-None-Match and
 * If-Match, Link. Every route's template is filled with ids of real resources.
 */

const ORIGIN = 'https://app.example.com';
const routes = collectRestRoutes(appRouter);
const FAKE: Record<string, string> = {
  records: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5',
};

let app: TestApp;
let ws: TestWorkspace;
const ids: Record<string, string> = {};

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request without fetch's own Accept-Encoding and decompression. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Raw> {
  const url = new URL(`/api/v1${path}`, app.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          ...(payload !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const auth = () => ({ Authorization: `Bearer ${ws.apiKey}` });
const json = (r: Raw) => JSON.parse(r.body.toString('utf8'));

async function ok(method: string, path: string, body?: unknown) {
  const res = await app.api(ws.apiKey, method, `/api/v1${path}`, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body.data;
}

/** The route's path with every parameter filled with a real id of its kind. */
function fill(route: RestRoute): string {
  const segments = route.path.split('/');
  return segments
    .map((segment, i) => {
      const name = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (!name) return segment;
      if (name === 'stageId') return ids.stage!;
      if (name === 'commentId') return ids.comment!;
      if (name === 'callId') return ids.call!;
      if (name === 'key') return 'score';
      if (name === 'field') return 'partners';
      if (name === 'to') return ids.to!;
      // A history entry of the record, deal or task the path names.
      if (name === 'entryId') return ids[`${segments[1]}:entry`]!;
      const kind = segments[i - 1]!;
      const id = ids[kind];
      if (!id) throw new Error(`no id for ${kind} in ${route.path}`);
      return id;
    })
    .join('/');
}

/** Query parameters a GET needs to answer 200 (deals are listed by pipeline). */
function query(route: RestRoute): string {
  return route.path === '/deals' ? `?pipelineId=${ids.pipelines}` : '';
}

beforeAll(async () => {
  app = await startTestApp({ env: { CORS_ORIGINS: `${ORIGIN}, https://other.example.com` } });
  ws = await app.createWorkspace({ rateLimitPerMinute: 100_000 });
  const folder = await ok('POST', '/folders', {
    name: 'Conventions',
    fields: [{ key: 'score', label: 'Score', type: 'NUMBER' }],
  });
  ids.folders = folder.id;
  const second = await ok('POST', '/folders', { name: 'Second folder' });
  const items = Array.from({ length: 30 }, (_, i) => ({ folderId: second.id, title: `Bulk record ${i}` }));
  await ok('POST', '/records/batch', { items });
  for (let i = 0; i < 3; i++) {
    ids.records = (
      await ok('POST', '/records', { folderId: folder.id, title: `Record ${i}`, data: { score: i } })
    ).id;
  }
  for (let i = 0; i < 2; i++) {
    ids.comment = (await ok('POST', `/records/${ids.records}/comments`, { text: `Comment ${i}` })).id;
    ids.call = (await ok('POST', `/records/${ids.records}/calls`, { duration: 60 + i })).id;
  }
  // Links: the last record to three others through a MANY relation of the folder to itself.
  await ok('POST', `/folders/${folder.id}/fields`, {
    key: 'partners',
    label: 'Partners',
    type: 'RELATION',
    relation: { folderId: folder.id, cardinality: 'MANY' },
  });
  for (let i = 0; i < 3; i++) {
    ids.to = (await ok('POST', '/records', { folderId: folder.id, title: `Partner ${i}` })).id;
    await ok('POST', `/records/${ids.records}/links`, { field: 'partners', to: ids.to });
  }
  ids.unlinked = (await ok('POST', '/records', { folderId: folder.id, title: 'Not linked yet' })).id;
  const pipeline = await ok('POST', '/pipelines', { name: 'Conventions', stages: ['A', 'B'] });
  ids.pipelines = pipeline.id;
  ids.stage = pipeline.stages[1].id;
  for (let i = 0; i < 2; i++) {
    ids.deals = (await ok('POST', '/deals', { pipelineId: pipeline.id, title: `Deal ${i}`, amount: 10 })).id;
    ids.tasks = (await ok('POST', '/tasks', { title: `Task ${i}` })).id;
  }
  for (const owner of ['deals', 'tasks']) {
    await ok('POST', `/${owner}/${ids[owner]}/links`, { to: ids.records, label: 'Primary contact' });
    await ok('POST', `/${owner}/${ids[owner]}/links`, { to: ids.to });
  }
  for (const owner of ['records', 'deals', 'tasks']) {
    await ok('PATCH', `/${owner}/${ids[owner]}`, { title: `Renamed ${owner}` });
    ids[`${owner}:entry`] = (await ok('GET', `/${owner}/${ids[owner]}/history?field=title`))[0].id;
  }
  for (let i = 0; i < 2; i++) {
    ids.webhooks = (await ok('POST', '/webhooks', { url: `http://127.0.0.1:1/hook${i}`, events: ['*'] })).id;
    ids.deliveries = (await ok('POST', `/webhooks/${ids.webhooks}/test`)).id;
  }
  await ok('POST', `/deliveries/${ids.deliveries}/redeliver`);
  for (let i = 0; i < 2; i++) {
    const workflow = await ok('POST', '/workflows', {
      name: `Workflow ${i}`,
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CREATE_RECORD', folderId: folder.id, title: '[[ trigger.body.name ]]' }],
    });
    ids.workflows = workflow.id;
    for (let j = 0; j < 2; j++) {
      const triggered = await fetch(workflow.trigger.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Run ${j}` }),
      });
      ids.runs = ((await triggered.json()) as { runId: string }).runId;
    }
  }
  // Jobs, run here rather than by a worker: an export with its file, and an update to revert.
  const runToEnd = async (job: { id: string }) => {
    for (let turn = 0; turn < 20; turn++) {
      await runJob(app.service.db, { workspaceId: ws.workspaceId, id: job.id });
      if (!['QUEUED', 'RUNNING'].includes((await ok('GET', `/jobs/${job.id}`)).status)) return job.id;
    }
    throw new Error(`job ${job.id} did not end`);
  };
  ids.updateJob = await runToEnd(
    await ok('POST', '/jobs/updates', {
      folderId: second.id,
      q: 'bulk',
      set: { title: 'Bulk record, updated' },
    }),
  );
  for (let i = 0; i < 2; i++) {
    ids.jobs = await runToEnd(await ok('POST', '/jobs/exports', { folderId: folder.id, format: 'csv' }));
  }
  for (let i = 0; i < 2; i++) ids.sandboxes = (await ok('POST', '/sandboxes', { name: `Sandbox ${i}` })).id;
}, 60_000);
afterAll(() => app?.stop());

describe('OPTIONS and HEAD on every route', () => {
  it('answers OPTIONS on every path with 204 and Allow, without a key', async () => {
    for (const route of routes) {
      const res = await raw('OPTIONS', fill(route));
      expect(res.status, `OPTIONS ${route.path}`).toBe(204);
      const allow = String(res.headers.allow).split(', ');
      expect(allow, route.path).toContain(route.method);
      expect(allow, route.path).toContain('OPTIONS');
      if (allow.includes('GET')) expect(allow, route.path).toContain('HEAD');
      expect(res.body.length).toBe(0);
    }
    expect((await raw('OPTIONS', '/openapi.json')).headers.allow).toBe('GET, HEAD, OPTIONS');
    expect((await raw('OPTIONS', '/nothing/here')).status).toBe(404);
  });

  it('answers HEAD wherever GET is, with the headers of the GET and no body', async () => {
    // The event feed lists an event once it has settled (FEED_SETTLE_SECONDS): the workspace's
    // events are moved back past that, rather than waited for, so the feed's GET and HEAD read
    // the same events. Through UTC, so every function is immutable: a sharded database applies
    // no other kind to a column in an UPDATE (docs/scaling.md).
    await app.service.db.$client.query(
      `update events set occurred_at = ((occurred_at at time zone 'UTC') - make_interval(secs => $2)) at time zone 'UTC'
        where workspace_id = $1`,
      [ws.workspaceId, FEED_SETTLE_SECONDS + 1],
    );
    const gets = routes.filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(15);
    for (const route of gets) {
      const path = `${fill(route)}${query(route)}`;
      const get = await raw('GET', path, auth());
      const head = await raw('HEAD', path, auth());
      expect(get.status, `GET ${path}: ${get.body}`).toBe(200);
      expect(head.status, `HEAD ${path}`).toBe(200);
      expect(head.body.length, path).toBe(0);
      // A file is sent chunked, its length not known before its end: no Content-Length on either.
      expect(head.headers['content-length'], path).toBe(
        route.file?.answers ? undefined : String(get.body.length),
      );
      if (route.file?.answers) {
        expect(get.headers['content-length'], path).toBeUndefined();
        expect([get.headers['transfer-encoding'], head.headers['transfer-encoding']], path).toEqual([
          'chunked',
          'chunked',
        ]);
      }
      for (const name of ['content-type', 'etag', 'link']) {
        expect(head.headers[name], `${name} of HEAD ${path}`).toEqual(get.headers[name]);
      }
    }
    // An unknown id is a 404 on HEAD too, and a method a path lacks a 405 naming HEAD.
    expect((await raw('HEAD', `/records/${FAKE.records}`, auth())).status).toBe(404);
    const wrong = await raw('PUT', '/records', auth());
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('ETag and conditional requests', () => {
  const singles = () => routes.filter((r) => r.kind.single);

  it('gives every single resource a strong ETag, and If-None-Match answers 304', async () => {
    expect(singles().length).toBeGreaterThanOrEqual(8);
    for (const route of singles()) {
      const path = fill(route);
      const res = await raw('GET', path, auth());
      const tag = res.headers.etag as string;
      expect(tag, `ETag of ${path}`).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect((await raw('GET', path, auth())).headers.etag, path).toBe(tag);
      const same = await raw('GET', path, { ...auth(), 'If-None-Match': `"other", ${tag}` });
      expect(same.status, path).toBe(304);
      expect(same.body.length).toBe(0);
      expect(same.headers.etag).toBe(tag);
      expect((await raw('GET', path, { ...auth(), 'If-None-Match': `W/${tag}` })).status).toBe(304);
      expect((await raw('GET', path, { ...auth(), 'If-None-Match': '"other"' })).status).toBe(200);
    }
    // Lists carry none, nor GET /me, whose rate-limit figures change with every request.
    expect((await raw('GET', '/me', auth())).headers.etag).toBeUndefined();
    expect((await raw('GET', '/records', auth())).headers.etag).toBeUndefined();
  });

  it('refuses a stale If-Match on every PATCH and DELETE with 412, changing nothing', async () => {
    const writes = routes.filter((r) => r.method === 'PATCH' || r.method === 'DELETE');
    const single = writes.filter((r) => r.kind.conditional);
    expect(writes.filter((r) => !r.kind.conditional).every((r) => r.path.endsWith('/batch'))).toBe(true);
    expect(single.length).toBeGreaterThan(10);
    for (const route of single) {
      const twin = conditionalTwin(routes, route);
      expect(twin, `${route.method} ${route.path} has a GET to judge it by`).toBeDefined();
      const read = fill(twin!);
      const before = (await raw('GET', read, auth())).headers.etag;
      const path = fill(route);
      const res = await raw(
        route.method,
        path,
        { ...auth(), 'If-Match': '"stale"' },
        route.method === 'PATCH' ? {} : undefined,
      );
      expect(res.status, `${route.method} ${path}: ${res.body}`).toBe(412);
      expect(json(res).error.code).toBe('PRECONDITION_FAILED');
      expect(res.headers.etag, path).toBe(before);
      expect((await raw('GET', read, auth())).headers.etag, `${read} unchanged`).toBe(before);
    }
  });

  it('refuses If-Match on a batch with a 400: a batch changes many resources', async () => {
    for (const route of routes.filter((r) => r.path.endsWith('/batch') && r.method === 'PATCH')) {
      const res = await raw('PATCH', route.path, { ...auth(), 'If-Match': '*' }, { items: [] });
      expect(res.status, route.path).toBe(400);
      expect(json(res).error.details).toEqual([{ path: 'If-Match', message: expect.any(String) }]);
    }
  });

  it('writes with the current ETag or *, and of two writes holding one ETag only the first goes through', async () => {
    const record = `/records/${ids.records}`;
    const tag = (await raw('GET', record, auth())).headers.etag as string;
    const patch = (title: string, ifMatch: string) =>
      raw('PATCH', record, { ...auth(), 'If-Match': ifMatch }, { title });
    const answers = await Promise.all([patch('One', tag), patch('Two', tag)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = json(answers.find((a) => a.status === 200)!).data.title;
    const now = await raw('GET', record, auth());
    expect(json(now).data.title).toBe(winner);
    expect((await patch('Three', tag)).status).toBe(412);
    expect((await patch('Three', now.headers.etag as string)).status).toBe(200);
    expect((await patch('Four', '*')).status).toBe(200);
    // With an Idempotency-Key as well: the check and the write are one transaction, replayed once.
    const fresh = (await raw('GET', record, auth())).headers.etag as string;
    const keyed = { ...auth(), 'If-Match': fresh, 'Idempotency-Key': `if-match-${Date.now()}` };
    const first = await raw('PATCH', record, keyed, { title: 'Five' });
    const again = await raw('PATCH', record, keyed, { title: 'Five' });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // A DELETE of a deal with its current tag, and an unknown id: 404 as without If-Match.
    const deal = `/deals/${(await ok('POST', '/deals', { pipelineId: ids.pipelines, title: 'Doomed' })).id}`;
    const dealTag = (await raw('GET', deal, auth())).headers.etag as string;
    expect((await raw('DELETE', deal, { ...auth(), 'If-Match': dealTag })).status).toBe(200);
    expect((await raw('DELETE', deal, { ...auth(), 'If-Match': dealTag })).status).toBe(404);
  });
});

describe('Location on creations', () => {
  it('answers every 201 with the Location of the new resource, which a GET reads', async () => {
    const bodies: Record<string, () => unknown> = {
      '/folders': () => ({ name: `Located ${Date.now()}` }),
      '/folders/{id}/fields': () => ({ key: `f${Date.now()}`, label: 'F', type: 'TEXT' }),
      '/pipelines': () => ({ name: 'Located', stages: ['A'] }),
      '/pipelines/{id}/stages': () => ({ name: `Stage ${Date.now()}` }),
      '/records': () => ({ folderId: ids.folders, title: 'Located' }),
      '/records/{id}/comments': () => ({ text: 'Located' }),
      '/records/{id}/calls': () => ({ duration: 5 }),
      '/deals': () => ({ pipelineId: ids.pipelines, title: 'Located' }),
      '/tasks': () => ({ title: 'Located' }),
      '/webhooks': () => ({ url: 'http://127.0.0.1:1/located', events: ['*'] }),
      '/deliveries/{id}/redeliver': () => undefined,
      '/workflows': () => ({
        name: 'Located',
        trigger: { type: 'INCOMING_WEBHOOK' },
        actions: [{ type: 'CREATE_RECORD', folderId: ids.folders, title: 'x' }],
      }),
      '/runs/{id}/rerun': () => undefined,
      '/jobs/imports': () => ({ folderId: ids.folders, format: 'csv', mapping: { Name: 'title' } }),
      '/jobs/exports': () => ({ folderId: ids.folders, format: 'ndjson' }),
      '/jobs/updates': () => ({ folderId: ids.folders, set: { title: 'Located' } }),
      '/jobs/{id}/revert': () => undefined,
      '/records/{id}/links': () => ({ field: 'partners', to: ids.unlinked }),
      '/deals/{id}/links': () => ({ to: ids.unlinked }),
      '/tasks/{id}/links': () => ({ to: ids.unlinked }),
      '/sandboxes': () => ({ name: `Located ${Date.now()}` }),
    };
    const creations = routes.filter((r) => r.location !== undefined);
    expect(creations.map((r) => r.path).sort()).toEqual(Object.keys(bodies).sort());
    for (const route of creations) {
      if (route.path === '/runs/{id}/rerun') {
        // A run can be re-run once it has ended: end the queued one first.
        await app.service.db.$client.query("update workflow_runs set status = 'FAILED' where id = $1", [
          ids.runs,
        ]);
      }
      // A revert sets back an update job.
      const path = route.path === '/jobs/{id}/revert' ? `/jobs/${ids.updateJob}/revert` : fill(route);
      const res = await app.api(ws.apiKey, 'POST', `/api/v1${path}`, bodies[route.path]!());
      expect(res.status, `${route.path}: ${res.text}`).toBe(201);
      const location = res.headers.get('location');
      expect(location, route.path).toMatch(/^http:\/\/[^/]+\/api\/v1\//);
      const read = await app.api(ws.apiKey, 'GET', new URL(location!).pathname);
      expect(read.status, `${route.path} → ${location}`).toBe(200);
      // A field or a stage is read with its folder or pipeline, which is what those answer;
      // a link to a record read alone, or in the list of the deal's or task's records.
      if (route.path.endsWith('/links')) {
        const linked = [read.body.data].flat().map((d: { to?: string; id: string }) => d.to ?? d.id);
        expect(linked, route.path).toContain(ids.unlinked);
      } else {
        expect(read.body.data.id, route.path).toBe(res.body.data.id);
      }
    }
    // Replayed under an Idempotency-Key, the 201 keeps its Location.
    const headers = { 'Idempotency-Key': `located-${Date.now()}` };
    const first = await app.api(ws.apiKey, 'POST', '/api/v1/tasks', { title: 'Once' }, headers);
    const again = await app.api(ws.apiKey, 'POST', '/api/v1/tasks', { title: 'Once' }, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
  });
});

describe('Link on paged lists', () => {
  it('points every list with a next page at it, with the same query and the cursor', async () => {
    const lists = routes.filter((r) => r.kind.list);
    let linked = 0;
    for (const route of lists) {
      // Lists page by `cursor`; the event feed by `after` (docs/api.md, Paging).
      expect(route.cursorParam, route.path).toBe(route.path === '/events' ? 'after' : 'cursor');
      const base = `${fill(route)}${query(route)}`;
      const path = `${base}${base.includes('?') ? '&' : '?'}pageSize=1`;
      const res = await raw('GET', path, auth());
      expect(res.status, `${path}: ${res.body}`).toBe(200);
      const body = json(res);
      if (!body.meta?.hasMore) {
        expect(res.headers.link, path).toBeUndefined();
        // The event feed's cursor stays set on its last page, so a poller resumes from it.
        if (route.path !== '/events') expect(body.meta.nextUrl, path).toBeNull();
        continue;
      }
      linked++;
      const link = String(res.headers.link);
      const target = /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
      expect(target, `${path}: ${link}`).toMatch(/^http:\/\//);
      // meta.nextUrl is the same URL, for tools that follow a "next URL" in the body.
      expect(body.meta.nextUrl, path).toBe(target);
      const url = new URL(target!);
      expect(url.searchParams.get(route.cursorParam!), target).toBe(body.meta.nextCursor);
      expect(url.searchParams.get('pageSize')).toBe('1');
      const next = await raw('GET', `${url.pathname.slice('/api/v1'.length)}${url.search}`, auth());
      expect(next.status, target).toBe(200);
      expect(json(next).data[0]?.id, target).not.toBe(body.data[0]?.id);
    }
    expect(linked).toBeGreaterThanOrEqual(10);
    // page=N becomes the cursor of the next page.
    const paged = await raw('GET', '/records?page=1&pageSize=1', auth());
    expect(String(paged.headers.link)).not.toMatch(/[?&]page=/);
  });
});

describe('compression', () => {
  it('compresses bodies over 1 KiB with br or gzip when asked, and leaves small ones alone', async () => {
    const path = '/records?pageSize=50';
    const plain = await raw('GET', path, auth());
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    // Both reasons the answer varies, not the last one set.
    expect(plain.headers.vary).toMatch(/Origin/);
    const gzip = await raw('GET', path, { ...auth(), 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    const br = await raw('GET', path, { ...auth(), 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    // Answers from outside the adapter: the OpenAPI document, an error with a long message.
    const doc = await raw('GET', '/openapi.json', { 'Accept-Encoding': 'br' });
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(doc.body).toString()).openapi).toMatch(/^3\./);
    const small = await raw('GET', `/records/${ids.records}`, { ...auth(), 'Accept-Encoding': 'gzip' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('streams what Koa answers compressed, and answers a client that refuses every coding as it is', async () => {
    const plain = await raw('GET', '/openapi.json');
    const gzip = await raw('GET', '/openapi.json', { 'Accept-Encoding': 'gzip;q=1, br;q=0.5' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['transfer-encoding']).toBe('chunked');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    for (const refusal of ['identity;q=0', '*;q=0', 'br;q=0, gzip;q=0']) {
      const res = await raw('GET', '/openapi.json', { 'Accept-Encoding': refusal });
      expect(res.status, refusal).toBe(200);
      expect(res.headers['content-encoding'], refusal).toBeUndefined();
      expect(res.body.equals(plain.body), refusal).toBe(true);
    }
    // An error with a long message (it names the path) is compressed too.
    const long = await raw('GET', `/${'x'.repeat(1500)}`, { ...auth(), 'Accept-Encoding': 'br' });
    expect(long.status).toBe(404);
    expect(long.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(long.body).toString()).error.code).toBe('NOT_FOUND');
  });

  it('reads Accept-Encoding weights', () => {
    expect(chooseEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding(undefined)).toBeNull();
    expect(parseEntityTags('W/"a", "b",*')).toEqual(['W/"a"', '"b"', '*']);
  });
});

describe('CORS', () => {
  it('answers a preflight from a listed origin with what it may send, and no credentials', async () => {
    for (const route of routes) {
      const res = await raw('OPTIONS', fill(route), {
        Origin: ORIGIN,
        'Access-Control-Request-Method': route.method,
        'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key, if-match',
      });
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin'], route.path).toBe(ORIGIN);
      expect(String(res.headers['access-control-allow-methods'])).toContain(route.method);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(
        /Authorization.*Idempotency-Key.*If-Match/,
      );
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('lets a listed origin read answers and their headers, errors included; others get no CORS headers', async () => {
    const res = await raw('GET', `/records/${ids.records}`, { ...auth(), Origin: ORIGIN });
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/ETag.*Location.*Link/);
    expect(String(res.headers.vary)).toMatch(/Origin/);
    const denied = await raw('GET', '/records', { Origin: ORIGIN });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe(ORIGIN);
    for (const origin of ['https://evil.example.com', 'http://app.example.com']) {
      const other = await raw('OPTIONS', '/records', {
        Origin: origin,
        'Access-Control-Request-Method': 'GET',
      });
      expect(other.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(other.headers['access-control-allow-methods']).toBeUndefined();
    }
  });
});
