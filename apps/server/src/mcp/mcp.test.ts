import { createApiKey } from '@crm/domain';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

let app: TestApp;
let ws: TestWorkspace;
let companies: string;
let pipeline: { id: string; stages: { id: string; name: string }[] };

beforeAll(async () => {
  app = await startTestApp();
  ws = await app.createWorkspace({ name: 'Acme Sales' });
  companies = (await ok('POST', '/folders', { name: 'Companies' })).data.id;
  await ok('POST', `/folders/${ws.folderId}/fields`, {
    key: 'employer',
    label: 'Company',
    type: 'RELATION',
    relation: { folderId: companies, cardinality: 'ONE' },
    inverse: { key: 'people', label: 'People', cardinality: 'MANY' },
  });
  await ok('POST', `/folders/${ws.folderId}/fields`, {
    key: 'tier',
    label: 'Tier',
    type: 'SELECT',
    options: ['Gold', 'Silver'],
  });
  pipeline = (await ok('GET', '/pipelines')).data[0];
});
afterAll(() => app?.stop());

async function ok(method: string, path: string, body?: unknown, key = ws.apiKey) {
  const res = await app.api(key, method, `/api/v1${path}`, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

/** The SDK's own client over Streamable HTTP, with a key as its bearer credential. */
async function connect(
  key = ws.apiKey,
  name = 'Test agent',
  validator?: jsonSchemaValidator,
): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, validator ? { jsonSchemaValidator: validator } : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    result,
    text: (result.content[0] as { text: string }).text,
    // biome-ignore lint/suspicious/noExplicitAny: tests read the tools' JSON answers freely
    data: result.structuredContent as any,
  };
}

async function keyWith(scopes: string[], folderIds?: string[]) {
  const made = await createApiKey(app.service.db, {
    workspaceId: ws.workspaceId,
    userId: ws.userId,
    name: `only ${scopes.join(' ')}`,
    scopes: scopes as never,
    ...(folderIds ? { folderIds } : {}),
  });
  return made;
}

const ALL_TOOLS = [
  'describe_workspace',
  'search_records',
  'get_record',
  'create_record',
  'update_record',
  'trash_record',
  'link_records',
  'list_related',
  'record_history',
  'list_deals',
  'move_deal',
  'list_tasks',
  'create_task',
  'complete_task',
  'add_comment',
  'log_call',
];

describe('the MCP server, driven by the SDK client', () => {
  it('initializes, names itself and lists the tools a full key may use, compactly and with schemas clients accept', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'crm-workspace' });
    expect(client.getInstructions()).toContain('describe_workspace');
    await client.ping();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS);
    expect(tools.length).toBeLessThanOrEqual(20);
    // The whole tools/list answer in under 8,000 tokens, at 4 characters a token.
    expect(JSON.stringify({ tools }).length).toBeLessThan(32_000);
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.inputSchema, t.name).not.toHaveProperty('oneOf');
      expect(t.inputSchema, t.name).not.toHaveProperty('anyOf');
      expect(t.inputSchema, t.name).not.toHaveProperty('allOf');
      expect(() => ajv.compile(t.inputSchema), t.name).not.toThrow();
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(() => ajv.compile(t.outputSchema as object), t.name).not.toThrow();
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const) {
        expect(typeof t.annotations?.[hint], `${t.name} ${hint}`).toBe('boolean');
      }
      expect(t.description?.length, t.name).toBeGreaterThan(20);
    }
    await client.close();
  });

  it('calls every tool, each answering structured content that matches its output schema', async () => {
    // The SDK client checks each structuredContent against the outputSchema tools/list gave for
    // the tool, with this validator: the SDK's own, noting which schema it checked.
    const checked: { schema: JsonSchemaType; valid: boolean }[] = [];
    const ajv = new AjvJsonSchemaValidator();
    const noting: jsonSchemaValidator = {
      getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
        const validate = ajv.getValidator<T>(schema);
        return (input) => {
          const result = validate(input);
          checked.push({ schema, valid: result.valid });
          return result;
        };
      },
    };
    const client = await connect(ws.apiKey, 'Test agent', noting);
    const { tools } = await client.listTools();
    const toolOf = new Map(tools.map((t) => [t.outputSchema as JsonSchemaType, t.name]));
    expect(toolOf.size).toBe(ALL_TOOLS.length);

    const described = await call(client, 'describe_workspace');
    expect(described.result.isError).toBeFalsy();
    expect(described.data.you).toMatchObject({ workspace: 'Acme Sales' });
    expect(described.data.folders.map((f: { id: string }) => f.id)).toEqual(
      expect.arrayContaining([ws.folderId, companies]),
    );
    expect(described.data.pipelines[0].stages.length).toBeGreaterThan(1);
    expect(described.data.members[0]).toMatchObject({ id: ws.userId, role: 'OWNER' });
    expect(JSON.parse(described.text)).toEqual(described.data);

    const acme = (await call(client, 'create_record', { folderId: companies, title: 'Acme Corp' })).data;
    expect(acme).toMatchObject({ created: true, record: { title: 'Acme Corp' } });
    const ada = (
      await call(client, 'create_record', {
        folderId: ws.folderId,
        title: 'Ada Lovelace',
        email: 'ada@example.com',
        data: { tier: 'Gold' },
      })
    ).data.record;
    const again = await call(client, 'create_record', {
      folderId: ws.folderId,
      title: 'Ada L.',
      email: 'ada@example.com',
      upsertByEmail: true,
    });
    expect(again.data).toMatchObject({ created: false, record: { id: ada.id, title: 'Ada L.' } });

    const updated = await call(client, 'update_record', { id: ada.id, data: { tier: 'Silver' } });
    expect(updated.data.record.data.tier).toBe('Silver');
    const linked = await call(client, 'link_records', { id: ada.id, field: 'employer', to: 'Acme Corp' });
    expect(linked.data.linked).toBe(true);
    const related = await call(client, 'list_related', { id: acme.record.id, field: 'people' });
    expect(related.data.records.map((r: { id: string }) => r.id)).toEqual([ada.id]);

    const found = await call(client, 'search_records', { query: 'ada@example', count: true });
    expect(found.data).toMatchObject({ records: [{ id: ada.id }], nextCursor: null, total: 1 });
    const filtered = await call(client, 'search_records', {
      filter: { 'employer.title': { contains: 'Acme' } },
    });
    expect(filtered.data.records.map((r: { id: string }) => r.id)).toEqual([ada.id]);

    const comment = await call(client, 'add_comment', { recordId: ada.id, text: 'Met at the conference.' });
    expect(comment.data.comment.text).toBe('Met at the conference.');
    const logged = await call(client, 'log_call', { recordId: ada.id, outcome: 'VOICEMAIL', duration: 42 });
    expect(logged.data.call).toMatchObject({ outcome: 'VOICEMAIL', duration: 42 });

    const task = (
      await call(client, 'create_task', { title: 'Send the proposal', recordId: ada.id, priority: 'HIGH' })
    ).data.task;
    expect(task).toMatchObject({ status: 'OPEN', recordId: ada.id });
    const tasks = await call(client, 'list_tasks', { status: 'OPEN' });
    expect(tasks.data.tasks.map((t: { id: string }) => t.id)).toContain(task.id);

    const deal = (
      await ok('POST', '/deals', {
        pipelineId: pipeline.id,
        stageId: pipeline.stages[0]!.id,
        title: 'Acme renewal',
        recordId: ada.id,
      })
    ).data;
    const deals = await call(client, 'list_deals', { pipelineId: pipeline.id });
    expect(deals.data.deals.map((d: { id: string }) => d.id)).toEqual([deal.id]);
    const lastStage = pipeline.stages.at(-1)!;
    const moved = await call(client, 'move_deal', { id: deal.id, stage: lastStage.name.toUpperCase() });
    expect(moved.data.deal.stageId).toBe(lastStage.id);

    const record = await call(client, 'get_record', { id: ada.id });
    expect(record.data.record).toMatchObject({ id: ada.id, expanded: { employer: { id: acme.record.id } } });
    expect(record.data.deals.map((d: { id: string }) => d.id)).toEqual([deal.id]);
    expect(record.data.tasks.map((t: { id: string }) => t.id)).toEqual([task.id]);
    expect(record.data.timeline.map((e: { kind: string }) => e.kind)).toEqual(
      expect.arrayContaining(['comment.added', 'call.logged', 'record.updated', 'record.linked']),
    );
    const company = await call(client, 'get_record', { id: acme.record.id });
    expect(company.data.related.people.map((r: { id: string }) => r.id)).toEqual([ada.id]);

    const done = await call(client, 'complete_task', { id: task.id });
    expect(done.data.task.status).toBe('DONE');
    const history = await call(client, 'record_history', { id: ada.id, field: 'data.tier' });
    expect(history.data.changes[0]).toMatchObject({ field: 'data.tier', from: 'Gold', to: 'Silver' });
    const dealHistory = await call(client, 'record_history', { id: deal.id });
    expect(dealHistory.data.changes[0]).toMatchObject({ field: 'stageId', to: lastStage.id });

    const unlinked = await call(client, 'link_records', {
      id: ada.id,
      field: 'employer',
      to: 'Acme Corp',
      unlink: true,
    });
    expect(unlinked.data.linked).toBe(false);
    const trashed = await call(client, 'trash_record', { id: ada.id });
    expect(trashed.data.record.trashedAt).toEqual(expect.any(String));
    expect((await app.api(ws.apiKey, 'GET', `/api/v1/records/${ada.id}`)).status).toBe(404);
    // Every tool's answer was checked against its own output schema, and held to it.
    expect(new Set(checked.map((c) => toolOf.get(c.schema)))).toEqual(new Set(ALL_TOOLS));
    expect(checked.filter((c) => !c.valid)).toEqual([]);
    await client.close();
  });

  it("records a change made through MCP as the key's, with the client's declared name and the mcp source", async () => {
    const client = await connect(ws.apiKey, 'Claude Desktop');
    const made = (await call(client, 'create_record', { folderId: ws.folderId, title: 'Grace Hopper' })).data
      .record;
    await call(client, 'update_record', { id: made.id, title: 'Rear Admiral Grace Hopper' });
    const history = await ok('GET', `/records/${made.id}/history?field=title`);
    const keyId = (await ok('GET', '/me')).data.apiKey?.id;
    expect(history.data[0]).toMatchObject({
      field: 'title',
      to: 'Rear Admiral Grace Hopper',
      actor: { type: 'mcp', name: 'test (Claude Desktop)', ...(keyId ? { id: keyId } : {}) },
      source: 'mcp',
      requestId: expect.any(String),
    });
    await client.close();
  });

  it('names the refused argument and what would be valid, and says what to do about a missing record', async () => {
    const client = await connect();
    const missing = await call(client, 'create_record', { folderId: ws.folderId });
    expect(missing.result.isError).toBe(true);
    expect(missing.text).toContain('- title: required');
    const badEnum = await call(client, 'create_task', { title: 'x', priority: 'ASAP' });
    expect(badEnum.result.isError).toBe(true);
    expect(badEnum.text).toMatch(/priority: .*LOW.*MEDIUM.*HIGH.*URGENT/);
    const unknownArg = await call(client, 'get_record', { id: 'rec_x', depth: 2 });
    expect(unknownArg.text).toContain('depth: not an argument of get_record; it takes id');
    const notFound = await call(client, 'get_record', { id: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5' });
    expect(notFound.result.isError).toBe(true);
    expect(notFound.text).toMatch(/^NOT_FOUND: /);
    expect(notFound.text).toContain('search_records');
    const domain = await call(client, 'update_record', {
      id: (await firstPerson()).id,
      data: { tier: 'Bronze' },
    });
    expect(domain.result.isError).toBe(true);
    expect(domain.text).toMatch(/- data\.tier: .*Gold.*Silver/);
    const stage = await call(client, 'move_deal', {
      id: (
        await ok('POST', '/deals', { pipelineId: pipeline.id, stageId: pipeline.stages[0]!.id, title: 'D' })
      ).data.id,
      stage: 'Nowhere',
    });
    expect(stage.text).toContain(`- stage: one of: ${pipeline.stages.map((s) => s.name).join(', ')}`);
    // The client's McpError says "MCP error -32602: " once, before the message the server sent.
    const unknown = await client.callTool({ name: 'drop_database', arguments: {} }).catch((e: Error) => e);
    expect(unknown).toBeInstanceOf(Error);
    expect((unknown as Error).message).toBe(
      'MCP error -32602: Unknown tool "drop_database"; tools/list names the tools this connection may use',
    );
    await client.close();
  });

  it("answers a field to link through that is not a RELATION field with the keys of the folder's RELATION fields", async () => {
    const client = await connect();
    const person = await firstPerson();
    const company = (await call(client, 'create_record', { folderId: companies, title: 'Initech' })).data
      .record;
    const cases = [
      ['link_records', { id: person.id, field: 'nope', to: 'Initech' }, 'nope', 'People', 'employer'],
      [
        'link_records',
        { id: person.id, field: 'tier', to: 'Initech', unlink: true },
        'tier',
        'People',
        'employer',
      ],
      ['list_related', { id: person.id, field: 'nope' }, 'nope', 'People', 'employer'],
      ['list_related', { id: company.id, field: 'employer' }, 'employer', 'Companies', 'people'],
    ] as const;
    for (const [name, args, key, folder, keys] of cases) {
      const refused = await call(client, name, args);
      expect(refused.result.isError, name).toBe(true);
      expect(refused.text, name).toBe(
        `VALIDATION_FAILED: ${key} is not a RELATION field of folder ${folder}\n- field: one of: ${keys}`,
      );
    }
    // A field that is one still answers the procedure's own refusal (here, of the other record).
    const noTarget = await call(client, 'link_records', {
      id: person.id,
      field: 'employer',
      to: 'Nobody Inc',
    });
    expect(noTarget.text).toContain('- to: no live record of folder Companies has the title "Nobody Inc"');
    await client.close();

    // A key that may not read folders is not shown their fields.
    const reader = await connect((await keyWith(['records:read'])).secret);
    const unlisted = await call(reader, 'list_related', { id: person.id, field: 'nope' });
    expect(unlisted.result.isError).toBe(true);
    expect(unlisted.text).not.toContain('employer');
    await reader.close();
  });

  it('keeps every answer within 25,000 characters, with a cursor that leads to exactly the rest', async () => {
    const folder = (
      await ok('POST', '/folders', {
        name: 'Long notes',
        fields: [{ key: 'notes', label: 'Notes', type: 'TEXT' }],
      })
    ).data.id;
    const made = await ok('POST', '/records/batch', {
      items: Array.from({ length: 40 }, (_, i) => ({
        folderId: folder,
        title: `Long ${i}`,
        data: { notes: 'x'.repeat(2_000) },
      })),
    });
    expect(made.data.length ?? made.data.results?.length).toBeGreaterThan(0);
    const client = await connect();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await call(client, 'search_records', {
        folderId: folder,
        limit: 50,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.text.length).toBeLessThanOrEqual(25_000);
      seen.push(...page.data.records.map((r: { id: string }) => r.id));
      cursor = page.data.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
    await client.close();
  });

  it("lists only the tools a key's scopes allow, and refuses the others naming the scope", async () => {
    const { secret } = await keyWith(['records:read']);
    const client = await connect(secret);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_records',
      'get_record',
      'list_related',
      'record_history',
    ]);
    const refused = await call(client, 'create_record', { folderId: ws.folderId, title: 'Nope' });
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toContain('FORBIDDEN');
    expect(refused.text).toContain('needs records:write');
    // get_record leaves out what the key may not read, rather than failing.
    const person = await firstPerson();
    const got = await call(client, 'get_record', { id: person.id });
    expect(got.result.isError).toBeFalsy();
    expect(got.data).not.toHaveProperty('deals');
    expect(got.data).not.toHaveProperty('tasks');
    await client.close();

    const reader = await connect((await keyWith(['read'])).secret);
    const names = (await reader.listTools()).tools.map((t) => t.name);
    expect(names).toEqual([
      'describe_workspace',
      'search_records',
      'get_record',
      'list_related',
      'record_history',
      'list_deals',
      'list_tasks',
    ]);
    await reader.close();
  });

  it('keeps a folder-limited key inside its folders', async () => {
    const { secret } = await keyWith(['read', 'write'], [companies]);
    const client = await connect(secret);
    const person = await firstPerson();
    const hidden = await call(client, 'get_record', { id: person.id });
    expect(hidden.result.isError).toBe(true);
    expect(hidden.text).toMatch(/^NOT_FOUND/);
    const listed = await call(client, 'search_records', {});
    expect(listed.data.records.every((r: { folderId: string }) => r.folderId === companies)).toBe(true);
    await client.close();
  });
});

async function firstPerson(): Promise<{ id: string }> {
  const list = await ok('GET', `/records?folderId=${ws.folderId}&pageSize=1`);
  if (list.data[0]) return list.data[0];
  return (await ok('POST', '/records', { folderId: ws.folderId, title: 'Someone' })).data;
}

describe('the /mcp endpoint over HTTP', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const headers = { Accept: 'application/json, text/event-stream' };

  it('answers initialize as JSON with a request id and the rate limit headers', async () => {
    const res = await app.api(ws.apiKey, 'POST', '/mcp', initialize, headers);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: 'crm-workspace' } },
    });
    expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(res.headers.get('ratelimit-limit')).toEqual(expect.any(String));
  });

  it('refuses a missing or wrong key with 401 and WWW-Authenticate', async () => {
    for (const key of [null, 'crm_not_a_key']) {
      const res = await app.api(key, 'POST', '/mcp', initialize, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
  });

  it('answers GET and DELETE with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await app.api(ws.apiKey, method, '/mcp', undefined, { Accept: 'text/event-stream' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.error.message).toContain('stateless');
    }
  });

  it('refuses a page of another site (DNS rebinding) and accepts this machine', async () => {
    const evil = await app.api(ws.apiKey, 'POST', '/mcp', initialize, {
      ...headers,
      Origin: 'http://evil.example.com',
    });
    expect(evil.status).toBe(403);
    expect(evil.body.error.message).toContain('CORS_ORIGINS');
    const local = await app.api(ws.apiKey, 'POST', '/mcp', initialize, {
      ...headers,
      Origin: 'http://localhost:6274',
    });
    expect(local.status).toBe(200);
  });

  it('answers an unknown tool with the JSON-RPC error -32602 and a message that names it once', async () => {
    const res = await app.api(
      ws.apiKey,
      'POST',
      '/mcp',
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'drop_database', arguments: {} } },
      headers,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32602,
        message: 'Unknown tool "drop_database"; tools/list names the tools this connection may use',
      },
    });
  });

  it('answers malformed tools/call params with -32602 and a message an agent can act on', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: 'describe_workspace', arguments: [] }, /arguments must be an object/],
      [{ name: 'describe_workspace', arguments: 'x' }, /arguments must be an object/],
      [{ arguments: {} }, /name of the tool/],
      [{ name: 7 }, /name of the tool/],
    ];
    for (const [params, message] of cases) {
      const res = await app.api(
        ws.apiKey,
        'POST',
        '/mcp',
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params },
        headers,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.error.code, JSON.stringify(params)).toBe(-32602);
      expect(res.body.error.message, JSON.stringify(params)).toMatch(message);
      expect(res.body.error.message).not.toContain('"code"');
    }
  });

  it('refuses bodies that are not JSON with a parse error', async () => {
    const res = await app.api(ws.apiKey, 'POST', '/mcp', '{"jsonrpc":', headers);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32700);
  });

  it('counts each message against the workspace limit and answers 429 with Retry-After beyond it', async () => {
    // Three a minute, one of which createWorkspace spent reading the folders.
    const small = await app.createWorkspace({ rateLimitPerMinute: 3 });
    const statuses: number[] = [];
    let last: Headers | undefined;
    for (let i = 0; i < 4; i++) {
      const res = await app.api(small.apiKey, 'POST', '/mcp', initialize, headers);
      statuses.push(res.status);
      last = res.headers;
    }
    expect(Number(last?.get('retry-after'))).toBeGreaterThan(0);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});
