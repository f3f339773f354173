import type { AppRouter } from '@crm/api';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Warnings on save (docs/workflows.md, "Warnings on save"): an automation whose values look
 * like a `{{ }}` template n8n or Make filled in is saved as before, and the answer says where.
 */

let app: TestApp;
let ws: TestWorkspace;

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ rateLimitPerMinute: 10_000 });
});
afterAll(() => app?.stop());

const URL = 'http://127.0.0.1:1/hook';
const create = (actions: unknown[]) =>
  app.api(ws.apiKey, 'POST', '/api/v1/workflows', {
    name: 'From n8n',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions,
  });
const update = (id: string, body: Record<string, unknown>) =>
  app.api(ws.apiKey, 'PATCH', `/api/v1/workflows/${id}`, body);
const pathsOf = (res: { body: { meta: { warnings: { path: string }[] } } }) =>
  res.body.meta.warnings.map((w) => w.path);

const clean = [
  {
    type: 'CREATE_RECORD',
    folderId: 'fld_x',
    title: '[[ trigger.body.name ]]',
    email: '{{ trigger.body.email }}',
    data: { source: 'web form' },
    upsertBy: 'email',
  },
  { type: 'CREATE_TASK', title: 'Call [[ record.title ]]', dueInDays: 1, priority: 'HIGH' },
  { type: 'CONDITION', left: '[[ trigger.body.country ]]', operator: 'EQUALS', right: '' },
  { type: 'ADD_COMMENT', text: 'Lead says: [[ trigger.body.message ]]' },
  {
    type: 'HTTP_REQUEST',
    url: URL,
    headers: { Authorization: 'Bearer [[ trigger.body.token ]]' },
    body: { email: '[[ record.email ]]', note: '', tags: [], matrix: [[1, 2]] },
  },
];

/** One case per heuristic: the actions as another tool sent them, and the paths warned about. */
const heuristics: [string, unknown[], string[]][] = [
  [
    'an empty parameter where a template was',
    [{ type: 'CREATE_RECORD', folderId: 'fld_x', title: '[[ trigger.body.name ]]', email: '', phone: ' ' }],
    ['actions.0.email', 'actions.0.phone'],
  ],
  ['a title of spaces only', [{ type: 'CREATE_TASK', title: '  ' }], ['actions.0.title']],
  [
    'an empty custom-field value',
    [
      { type: 'ADD_COMMENT', text: 'x' },
      { type: 'UPDATE_RECORD', data: { company: '' } },
    ],
    ['actions.1.data.company'],
  ],
  [
    'an empty value of an UPDATE_RECORD, which would clear it',
    [{ type: 'UPDATE_RECORD', email: '' }],
    ['actions.0.email'],
  ],
  ['"undefined" as a whole value', [{ type: 'ASSIGN_OWNER', ownerId: 'undefined' }], ['actions.0.ownerId']],
  [
    'the text "null" as a whole value',
    [{ type: 'CREATE_DEAL', pipelineId: 'pl_x', title: 'null' }],
    ['actions.0.title'],
  ],
  [
    '"undefined" in an HTTP body value',
    [
      { type: 'ADD_COMMENT', text: 'x' },
      { type: 'ADD_COMMENT', text: 'y' },
      { type: 'HTTP_REQUEST', url: URL, body: { email: 'undefined', lead: { id: 'null' } } },
    ],
    ['actions.2.body.email', 'actions.2.body.lead.id'],
  ],
  [
    'an HTTP header value that is "undefined", empty, or ends in a space',
    [
      {
        type: 'HTTP_REQUEST',
        url: URL,
        headers: { 'X-Lead': 'undefined', 'X-Email': '', Authorization: 'Bearer ' },
      },
    ],
    ['actions.0.headers.X-Lead', 'actions.0.headers.X-Email', 'actions.0.headers.Authorization'],
  ],
  [
    'text holding an "undefined" fragment',
    [{ type: 'CREATE_TASK', title: 'Call undefined about undefined' }],
    ['actions.0.title'],
  ],
  [
    'text holding an "[object Object]" fragment',
    [{ type: 'ADD_COMMENT', text: 'Order: [object Object]' }],
    ['actions.0.text'],
  ],
  [
    'an "undefined" fragment in a URL',
    [{ type: 'HTTP_REQUEST', url: 'http://127.0.0.1:1/users/undefined/orders' }],
    ['actions.0.url'],
  ],
  [
    'an empty CONDITION value, and an empty right side where "" cannot be meant',
    [{ type: 'CONDITION', left: '', operator: 'CONTAINS', right: '' }],
    ['actions.0.left', 'actions.0.right'],
  ],
];

describe('saving an automation answers meta.warnings', () => {
  it('gives meta: { warnings: [] } for a clean automation, and data exactly as before', async () => {
    const created = await create(clean);
    expect(created.status, created.text).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['data', 'meta']);
    expect(created.body.meta).toEqual({ warnings: [] });
    const id = created.body.data.id;
    const shown = await app.api(ws.apiKey, 'GET', `/api/v1/workflows/${id}`);
    expect(created.body.data).toEqual({ ...shown.body.data, secret: null });
    expect(created.body.data.actions).toEqual(clean);

    const updated = await update(id, { actions: clean, name: 'Still clean' });
    expect(updated.status).toBe(200);
    expect(updated.body.meta).toEqual({ warnings: [] });
    const after = await app.api(ws.apiKey, 'GET', `/api/v1/workflows/${id}`);
    expect(updated.body.data).toEqual({ ...after.body.data, secret: null });
  });

  for (const [what, actions, paths] of heuristics) {
    it(`warns about ${what} on create and on update, and saves the automation as given`, async () => {
      const created = await create(actions);
      expect(created.status, created.text).toBe(201);
      expect(pathsOf(created)).toEqual(paths);
      for (const warning of created.body.meta.warnings) {
        expect(warning).toEqual({ path: expect.any(String), message: expect.stringContaining('[[ … ]]') });
      }
      expect(created.body.data.actions).toEqual(actions);

      const fresh = await create(clean);
      const updated = await update(fresh.body.data.id, { actions });
      expect(updated.status, updated.text).toBe(200);
      expect(pathsOf(updated)).toEqual(paths);
      expect(updated.body.data.actions).toEqual(actions);
    });
  }

  it('warns on an update that leaves the warned values in place, and stops once they are fixed', async () => {
    const created = await create([{ type: 'CREATE_TASK', title: 'Call undefined' }]);
    const id = created.body.data.id;
    const renamed = await update(id, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(pathsOf(renamed)).toEqual(['actions.0.title']);
    const fixed = await update(id, { actions: [{ type: 'CREATE_TASK', title: 'Call [[ record.title ]]' }] });
    expect(fixed.body.meta).toEqual({ warnings: [] });
    // Enabling, disabling and rotating answer { data } only, as before.
    const disabled = await app.api(ws.apiKey, 'POST', `/api/v1/workflows/${id}/disable`);
    expect(Object.keys(disabled.body)).toEqual(['data']);
  });

  it('keeps refusing what cannot be saved: an empty title or template is a 400, not a warning', async () => {
    const emptyTitle = await create([{ type: 'CREATE_TASK', title: '' }]);
    expect(emptyTitle.status).toBe(400);
    expect(emptyTitle.body.error.details[0].path).toBe('actions.0.title');
    const emptyTemplate = await create([{ type: 'ADD_COMMENT', text: 'Hi [[ ]]' }]);
    expect(emptyTemplate.status).toBe(400);
    expect(emptyTemplate.body.error.details).toEqual([
      { path: 'actions.0.text', message: 'has an empty [[ ]]' },
    ]);
  });

  it('answers the same meta.warnings over tRPC', async () => {
    const trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${app.url}/trpc`, headers: () => ({ Authorization: `Bearer ${ws.apiKey}` }) }),
      ],
    });
    const created = await trpc.workflows.create.mutate({
      name: 'From Make',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'HTTP_REQUEST', url: URL, body: { email: 'undefined' } }],
    });
    expect(created.meta.warnings.map((w) => w.path)).toEqual(['actions.0.body.email']);
    const updated = await trpc.workflows.update.mutate({
      id: created.data.id,
      actions: [{ type: 'HTTP_REQUEST', url: URL, body: { email: '[[ trigger.body.email ]]' } }],
    });
    expect(updated.meta).toEqual({ warnings: [] });
  });

  it('is described in the OpenAPI document for create and update', async () => {
    const doc = (await app.api(null, 'GET', '/api/v1/openapi.json')).body;
    const resolve = (schema: { $ref?: string }): typeof doc =>
      schema.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()!]) : schema;
    for (const [path, method, status] of [
      ['/workflows', 'post', '201'],
      ['/workflows/{id}', 'patch', '200'],
    ] as const) {
      const answer = resolve(doc.paths[path][method].responses[status].content['application/json'].schema);
      expect(answer.required).toEqual(expect.arrayContaining(['data', 'meta']));
      const meta = resolve(answer.properties.meta);
      expect(meta.required).toEqual(['warnings']);
      const warning = resolve(meta.properties.warnings.items);
      expect(warning.properties).toMatchObject({ path: { type: 'string' }, message: { type: 'string' } });
      expect(warning.required).toEqual(['path', 'message']);
      expect(doc.paths[path][method].description).toContain('meta.warnings');
    }
    const enable =
      doc.paths['/workflows/{id}/enable'].post.responses['200'].content['application/json'].schema;
    expect(resolve(enable).properties.meta).toBeUndefined();
  });
});
