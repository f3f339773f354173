import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ApiKeyScope } from '@crm/db/schema';
import { canonicalJson, createApiKey } from '@crm/domain';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

const run = promisify(execFile);
const crmBin = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'packages',
  'cli',
  'bin',
  'crm.mjs',
);

let app: TestApp;
let source: TestWorkspace;
let dir: string;

beforeAll(async () => {
  app = await startTestApp();
  dir = await mkdtemp(join(tmpdir(), 'crm-config-'));
  source = await app.createWorkspace({ name: 'Sandbox' });
  const k = source.apiKey;
  const companies = await app.api(k, 'POST', '/api/v1/folders', {
    name: 'Companies',
    fields: [{ key: 'tier', label: 'Tier', type: 'SELECT', options: ['Gold', 'Silver'] }],
  });
  expect(companies.status).toBe(201);
  const field = await app.api(k, 'POST', `/api/v1/folders/${source.folderId}/fields`, {
    key: 'employer',
    label: 'Employer',
    type: 'RELATION',
    relation: { folderId: companies.body.data.id, cardinality: 'ONE' },
    inverse: { key: 'staff', label: 'Staff', cardinality: 'MANY' },
  });
  expect(field.status).toBe(201);
  const pipeline = await app.api(k, 'POST', '/api/v1/pipelines', {
    name: 'Partners',
    stages: ['Talk', 'Signed'],
  });
  expect(pipeline.status).toBe(201);
  const signed = pipeline.body.data.stages[1].id;
  const workflow = await app.api(k, 'POST', '/api/v1/workflows', {
    name: 'New partner',
    trigger: { type: 'INCOMING_WEBHOOK' },
    actions: [
      { type: 'CREATE_RECORD', folderId: companies.body.data.id, title: '{{ trigger.body.name }}' },
      { type: 'CREATE_DEAL', pipelineId: pipeline.body.data.id, stageId: signed, title: 'Partner' },
    ],
  });
  expect(workflow.status).toBe(201);
});
afterAll(async () => {
  await app?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('configuration as code over REST', () => {
  it('exports a document its JSON Schema accepts, and applies it to another workspace to the same document', async () => {
    const exported = await app.api(source.apiKey, 'GET', '/api/v1/config');
    expect(exported.status).toBe(200);
    const document = exported.body.data;
    expect(document.workflows[0].actions[1]).toMatchObject({
      pipelineId: { $pipeline: 'Partners' },
      stageId: { $stage: ['Partners', 'Signed'] },
    });

    const schema = await fetch(`${app.url}/api/v1/config.schema.json`);
    expect(schema.status).toBe(200);
    expect(schema.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    const validate = new Ajv2020({ strict: false }).compile((await schema.json()) as object);
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...document, version: 2 })).toBe(false);

    const target = await app.createWorkspace({ name: 'Production' });
    const plan = await app.api(target.apiKey, 'POST', '/api/v1/config/plan', { document });
    expect(plan.status).toBe(200);
    expect(plan.body.data.changes.length).toBeGreaterThan(3);
    // A plan writes nothing.
    const untouched = await app.api(target.apiKey, 'GET', '/api/v1/config');
    expect(untouched.body.data.workflows).toEqual([]);

    const applied = await app.api(target.apiKey, 'POST', '/api/v1/config/apply', { document });
    expect(applied.status).toBe(200);
    expect(applied.body.data.changes).toEqual(plan.body.data.changes);
    const after = await app.api(target.apiKey, 'GET', '/api/v1/config');
    expect(canonicalJson(after.body.data)).toBe(canonicalJson(document));

    const again = await app.api(target.apiKey, 'POST', '/api/v1/config/apply', { document, prune: true });
    expect(again.status).toBe(200);
    expect(again.body.data.changes).toEqual([]);

    const audit = await app.api(target.apiKey, 'GET', '/api/v1/audit-log?action=config.applied');
    expect(audit.status).toBe(200);
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['config.applied']);
  });

  it('answers a document with problems with a 400 naming each, and a key without the scope with a 403', async () => {
    const bad = await app.api(source.apiKey, 'POST', '/api/v1/config/apply', {
      document: {
        version: 1,
        folders: [{ name: 'X', fields: [{ key: 'a', label: 'A', type: 'SELECT' }] }],
        pipelines: [],
        workflows: [],
        webhooks: [],
        views: [],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.details).toEqual([
      { path: 'document.folders.0.fields.0.options', message: 'is required for SELECT fields' },
    ]);
    const shapeless = await app.api(source.apiKey, 'POST', '/api/v1/config/plan', {
      document: { version: 1 },
    });
    expect(shapeless.status).toBe(400);

    // config:read reads and plans; config:write applies; other scopes do neither.
    const key = async (scopes: ApiKeyScope[]) =>
      (
        await createApiKey(app.service.db, {
          workspaceId: source.workspaceId,
          userId: source.userId,
          name: scopes.join(' '),
          scopes,
        })
      ).secret;
    const records = await key(['records:read']);
    const reader = await key(['config:read']);
    const noScope = await app.api(records, 'GET', '/api/v1/config');
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.message).toBe('This API key lacks the config:read scope');
    const read = await app.api(reader, 'GET', '/api/v1/config');
    expect(read.status).toBe(200);
    expect((await app.api(reader, 'POST', '/api/v1/config/plan', { document: read.body.data })).status).toBe(
      200,
    );
    const write = await app.api(reader, 'POST', '/api/v1/config/apply', { document: read.body.data });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toBe('This API key lacks the config:write scope');
  });

  it('crm config pull, plan and apply go through the REST API of a running service', async () => {
    const target = await app.createWorkspace({ name: 'Promoted' });
    const file = join(dir, 'config.json');
    const env = { ...process.env, CRM_URL: app.url };
    const pulled = await run(
      process.execPath,
      [crmBin, 'config', 'pull', '--key', source.apiKey, '--out', file],
      { env },
    );
    expect(JSON.parse(pulled.stdout)).toEqual({ writtenTo: file });
    const text = await readFile(file, 'utf8');
    const plan = await run(
      process.execPath,
      [crmBin, 'config', 'plan', '--key', target.apiKey, '--file', file],
      { env },
    );
    expect(JSON.parse(plan.stdout).changes.length).toBeGreaterThan(3);
    const applied = await run(
      process.execPath,
      [crmBin, 'config', 'apply', '--key', target.apiKey, '--file', file],
      { env },
    );
    expect(JSON.parse(applied.stdout).changes).toEqual(JSON.parse(plan.stdout).changes);
    const back = join(dir, 'back.json');
    await run(process.execPath, [crmBin, 'config', 'pull', '--key', target.apiKey, '--out', back], { env });
    expect(await readFile(back, 'utf8')).toBe(text);

    // A refused document: the answer on stdout, exit status 1.
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ version: 1 }));
    const refused = await run(
      process.execPath,
      [crmBin, 'config', 'apply', '--key', target.apiKey, '--file', join(dir, 'bad.json')],
      { env },
    ).then(
      () => null,
      (error: { code: number; stdout: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(JSON.parse(refused?.stdout ?? '{}').error.code).toBe('VALIDATION_FAILED');
  });
});
