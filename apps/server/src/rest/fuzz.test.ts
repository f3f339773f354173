import { Agent, request as httpRequest } from 'node:http';
import { appRouter, collectRestRoutes, errorCodeMappings } from '@crm/api';
import { setPassword } from '@crm/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_KINDS,
  type CaseKind,
  type FuzzFixtures,
  type FuzzRequest,
  type FuzzRoute,
  makeRequest,
  type Schema,
  seededRandom,
} from '../testing/fuzz.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Hostile input on every route: at least 10,000 generated requests over every operation of
 * the OpenAPI document, the trigger URL and the sign-in route (and the tRPC procedures
 * besides), each with one kind of bad input (testing/fuzz.ts). No answer may be a 5xx; every
 * 4xx has the REST error body; no body shows a stack, SQL or a library's message.
 * Repeat a run with FUZZ_SEED=<seed> (the default seed is fixed, so CI runs the same requests).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Requests over the REST operations, the trigger URL and the sign-in route. */
const REQUESTS = 10_000;
/** Requests per tRPC procedure, on top. */
const TRPC_REQUESTS_PER_PROCEDURE = 10;
const CONCURRENCY = 8;

let app: TestApp;
let ws: TestWorkspace;
let routes: FuzzRoute[];
let fixtures: FuzzFixtures;

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is read as plain JSON
type Json = any;

beforeAll(async () => {
  app = await startTestApp();
  // Far above what the run sends, so no route hides behind a 429.
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000_000 });
  const document = (await app.api(null, 'GET', '/api/v1/openapi.json')).body as Json;
  routes = routesOf(document);
  fixtures = await makeFixtures(document);
}, 120_000);
afterAll(async () => {
  agent.destroy();
  await app?.stop();
});

/** Every operation of the document, then the trigger URL, the sign-in route and the tRPC procedures. */
function routesOf(document: Json): FuzzRoute[] {
  const resolve = (value: Json): Json => (value?.$ref ? resolve(refOf(document, value.$ref)) : value);
  const rest: FuzzRoute[] = [];
  const trpc: FuzzRoute[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths)) {
    // A path with a server of its own is not below /api/v1 and names no procedure (its
    // operationId, `workflows-trigger`, only follows their pattern): the trigger endpoint,
    // which has a route of its own below.
    if (item.servers) continue;
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (!operation?.responses) continue;
      const parameters: Json[] = (operation.parameters ?? []).map(resolve);
      const querySchemas: Record<string, Schema> = {};
      for (const p of parameters) if (p.in === 'query') querySchemas[p.name] = p.schema;
      const route: FuzzRoute = {
        surface: 'rest',
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: Object.keys(querySchemas),
        querySchemas,
        body: resolve(operation.requestBody?.content?.['application/json']?.schema) ?? null,
      };
      rest.push(route);
      trpc.push({ ...route, surface: 'trpc', template: String(operation.operationId).replace('-', '.') });
    }
  }
  const trigger: FuzzRoute = {
    surface: 'trigger',
    method: 'POST',
    template: '/api/webhooks/trigger/{workflowId}',
    pathParams: ['workflowId'],
    queryParams: [],
    querySchemas: {},
    body: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        email: { type: 'string', format: 'email' },
        recordId: { type: 'string' },
      },
    },
  };
  const signIn: FuzzRoute = {
    surface: 'sign-in',
    method: 'POST',
    template: '/auth/sign-in',
    pathParams: [],
    queryParams: [],
    querySchemas: {},
    body: {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, password: { type: 'string' } },
      required: ['email', 'password'],
    },
  };
  return [...rest, trigger, signIn, ...trpc];
}

function refOf(document: Json, ref: string): Json {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Json, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** Real objects of every kind, so path ids and body references sometimes point at something. */
async function makeFixtures(document: Json): Promise<FuzzFixtures> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.api(ws.apiKey, method, `/api/v1${path}`, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body.data;
  };
  const fields = [
    { key: 'notes', label: 'Notes', type: 'TEXT' },
    { key: 'score', label: 'Score', type: 'NUMBER' },
    { key: 'vip', label: 'VIP', type: 'BOOLEAN' },
    { key: 'born', label: 'Born', type: 'DATE' },
    { key: 'mail', label: 'Mail', type: 'EMAIL' },
    { key: 'site', label: 'Site', type: 'URL' },
    { key: 'tier', label: 'Tier', type: 'SELECT', options: ['gold', 'silver'] },
    { key: 'tags', label: 'Tags', type: 'MULTI_SELECT', options: ['x', 'y'] },
  ];
  const folder = await call('POST', '/folders', { name: 'Fuzz', fields });
  const records = [
    await call('POST', '/records', {
      folderId: folder.id,
      title: 'Ada',
      email: 'ada@example.com',
      data: { notes: 'n' },
    }),
    await call('POST', '/records', { folderId: ws.folderId, title: 'Grace', phone: '+1 555' }),
  ];
  const pipeline = await call('POST', '/pipelines', { name: 'Fuzz', stages: ['A', 'B', 'C'] });
  const stageIds: string[] = pipeline.stages.map((s: { id: string }) => s.id);
  const deal = await call('POST', '/deals', {
    pipelineId: pipeline.id,
    title: 'Deal',
    amount: 10,
    recordId: records[0].id,
  });
  const task = await call('POST', '/tasks', { title: 'Task', recordId: records[0].id });
  await call('POST', `/records/${records[0].id}/comments`, { text: 'Comment' });
  await call('POST', `/records/${records[0].id}/calls`, { duration: 5 });
  const webhook = await call('POST', '/webhooks', { url: 'http://127.0.0.1:1/hook', events: ['*'] });
  const delivery = await call('POST', `/webhooks/${webhook.id}/test`);
  const actions = [{ type: 'ADD_COMMENT', text: 'From {{ trigger.body.name }}' }];
  const workflow = await call('POST', '/workflows', {
    name: 'Fuzz REST',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions,
    rateLimitPerMinute: 1_000_000,
  });
  // The trigger URL's own workflow is never a REST path id, so REST calls cannot disable it.
  const triggered = await call('POST', '/workflows', {
    name: 'Fuzz trigger',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions,
    rateLimitPerMinute: 1_000_000,
  });
  const run = await app.api(null, 'POST', `/api/webhooks/trigger/${workflow.id}`, { name: 'Ada' });
  expect(run.status, run.text).toBe(200);
  const email = ((await call('GET', '/me')) as { user: { email: string } }).user.email;
  await setPassword(app.service.db, email, 'a long enough password');
  const recordIds = records.map((r: { id: string }) => r.id);
  return {
    ids: {
      records: recordIds,
      folders: [folder.id, ws.folderId],
      pipelines: [pipeline.id],
      deals: [deal.id],
      tasks: [task.id],
      webhooks: [webhook.id],
      deliveries: [delivery.id],
      workflows: [workflow.id],
      runs: [run.body.runId],
      stageId: stageIds,
      key: fields.map((f) => f.key),
    },
    values: {
      folderId: [folder.id, ws.folderId],
      pipelineId: [pipeline.id],
      stageId: stageIds,
      moveDealsTo: stageIds,
      stageIds: stageIds,
      recordId: recordIds,
      ownerId: [ws.userId],
      assigneeId: [ws.userId],
      fieldKeys: fields.map((f) => f.key),
      email: [email, 'nobody@example.com'],
      password: ['a long enough password', 'wrong password'],
      events: ['*', 'record.created'],
      types: ['record.created,deal.created'],
    },
    triggerWorkflowIds: [triggered.id],
    resolve: (ref) => refOf(document, ref),
  };
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Keep-alive connections, one per worker: node:http costs the shared CPU less than fetch. */
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(request: FuzzRequest): Promise<Answer> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.route.surface === 'rest' || request.route.surface === 'trpc') {
    headers.Authorization = `Bearer ${ws.apiKey}`;
  }
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  if (body) headers['Content-Length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${app.url}${request.url}`, { method: request.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === 'string') answerHeaders.set(name, value);
        }
        resolve({
          status: res.statusCode!,
          headers: answerHeaders,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Text no error body may hold: stack frames, SQL, PostgreSQL's and libraries' own words. */
const LEAKS: RegExp[] = [
  /\bat [\w.<>$]+ \(/,
  /\bat (?:file|node):/,
  /\.(?:ts|js|mjs|cjs):\d+/,
  /node_modules/,
  /\bselect\b[^"]*\bfrom\b/i,
  /\binsert into\b/i,
  /\bdelete from\b/i,
  /\bupdate "/i,
  /syntax error/i,
  /violates/i,
  /duplicate key/i,
  /relation "/i,
  /invalid byte sequence/i,
  /unsupported Unicode escape/i,
  /Failed query/i,
  /postgres/i,
  /\b(?:Drizzle\w*|Zod|Type|Range|Syntax|Reference)Error\b/,
  /Cannot read propert/i,
  /is not a function/i,
  /Maximum call stack/i,
  /"stack"/,
];

/** What is wrong with an answer, or null. */
function problemWith(request: FuzzRequest, answer: Answer): string | null {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400) return null;
  for (const leak of LEAKS) if (leak.test(answer.text)) return `leaks ${leak}`;
  let body: Json;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'an error body that is not JSON';
  }
  let error: Json;
  if (request.route.surface === 'trpc') {
    error = body?.error?.data?.error;
  } else if (request.route.surface === 'trigger') {
    if (!sameKeys(body, ['ok', 'error']) || body.ok !== false) return 'not { ok: false, error }';
    error = body.error;
  } else {
    if (!sameKeys(body, ['error'])) return 'not { error }';
    error = body.error;
  }
  if (!error || typeof error !== 'object') return 'no error object';
  const allowed = new Set(['code', 'message', 'details', 'requestId']);
  const extra = Object.keys(error).filter((k) => !allowed.has(k));
  if (extra.length > 0) return `unexpected error keys ${extra.join(', ')}`;
  const mapping = errorCodeMappings[error.code as keyof typeof errorCodeMappings];
  if (!mapping) return `unknown code ${error.code}`;
  if (mapping.status !== answer.status) return `code ${error.code} with status ${answer.status}`;
  if (typeof error.message !== 'string' || error.message === '') return 'no message';
  const replayed = answer.headers.get('idempotent-replayed') === 'true';
  if (!replayed && error.requestId !== answer.headers.get('x-request-id'))
    return 'requestId differs from X-Request-Id';
  if (error.details !== undefined) {
    if (!Array.isArray(error.details)) return 'details is not a list';
    for (const detail of error.details) {
      if (
        !sameKeys(detail, ['path', 'message']) ||
        typeof detail.path !== 'string' ||
        typeof detail.message !== 'string'
      ) {
        return 'a detail that is not { path, message }';
      }
    }
  }
  return null;
}

const sameKeys = (value: Json, keys: string[]) =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.keys(value).sort().join() === [...keys].sort().join();

describe('hostile input on every route', () => {
  it('the route table is every REST route the procedures declare', () => {
    const declared = collectRestRoutes(appRouter).map((r) => `${r.method} ${r.path}`);
    const fuzzed = routes.filter((r) => r.surface === 'rest').map((r) => `${r.method} ${r.template}`);
    expect(fuzzed.sort()).toEqual(declared.sort());
    const procedures = Object.keys(
      (appRouter as unknown as { _def: { procedures: object } })._def.procedures,
    );
    for (const route of routes.filter((r) => r.surface === 'trpc'))
      expect(procedures).toContain(route.template);
  });

  it(`answers ${REQUESTS} generated requests and the tRPC procedures without a 5xx, in the REST error body's shape`, async () => {
    const started = performance.now();
    const random = seededRandom(SEED);
    const main = routes.filter((r) => r.surface !== 'trpc');
    const trpc = routes.filter((r) => r.surface === 'trpc');
    const plan: [FuzzRoute, CaseKind][] = [];
    // Round-robin over the routes, so every one gets its share; the case is random.
    for (let i = 0; i < REQUESTS; i++) plan.push([main[i % main.length]!, random.pick(CASE_KINDS)]);
    for (let i = 0; i < trpc.length * TRPC_REQUESTS_PER_PROCEDURE; i++) {
      plan.push([trpc[i % trpc.length]!, random.pick(CASE_KINDS)]);
    }
    // Requests are made in plan order from the seed (the answers may come in any order).
    const requests = plan.map(([route, kind]) => makeRequest(random, route, kind, fixtures));

    const problems: string[] = [];
    const statuses = new Map<number, number>();
    const perRoute = new Map<string, number>();
    const perKind = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const index = next++;
        const request = requests[index]!;
        let answer: Answer;
        try {
          answer = await send(request);
        } catch (error) {
          problems.push(
            `#${index} ${request.kind} ${request.method} ${request.url.slice(0, 120)}: ${String(error)}`,
          );
          continue;
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const routeName = `${request.route.surface} ${request.route.method} ${request.route.template}`;
        perRoute.set(routeName, (perRoute.get(routeName) ?? 0) + 1);
        perKind.set(request.kind, (perKind.get(request.kind) ?? 0) + 1);
        const problem = problemWith(request, answer);
        if (problem) {
          problems.push(
            `#${index} ${request.kind} ${request.method} ${request.url.slice(0, 120)}: ${problem}: ${answer.text.slice(0, 300)}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(
      `fuzz: seed ${SEED}, ${requests.length} requests over ${perRoute.size} routes in ${seconds} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );

    expect(problems.slice(0, 25)).toEqual([]);
    expect(requests.length).toBeGreaterThanOrEqual(REQUESTS);
    expect(perRoute.size).toBe(routes.length);
    for (const kind of CASE_KINDS) expect(perKind.get(kind) ?? 0, kind).toBeGreaterThan(0);
    // Refusals must come from the checks, not from every request failing the gate.
    expect(statuses.get(401) ?? 0).toBeLessThan(requests.length / 20);
  }, 180_000);
});
