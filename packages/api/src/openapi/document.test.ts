import { eventTypes, triggerPath } from '@crm/domain';
import { describe, expect, it } from 'vitest';
import { proceduresOf } from '../internals/trpc.ts';
import { appRouter } from '../routers/index.ts';
import { buildOpenApiDocument } from './document.ts';
import { TRIGGER_OPERATION_PATH, TRIGGER_PATH_TEMPLATE } from './trigger.ts';

/**
 * What the document says beyond what each procedure declares, checked on the document itself
 * (the server's answers are checked against it in apps/server's openapi tests).
 */

// biome-ignore lint/suspicious/noExplicitAny: the test reads the document as plain JSON
type Json = Record<string, any>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const build = (baseUrl: string) =>
  buildOpenApiDocument(appRouter, { baseUrl, version: '0.0.0' }) as unknown as Json;
const doc = build('');
const schemas = doc.components.schemas as Record<string, Json>;
const resolve = (node: Json): Json =>
  typeof node?.$ref === 'string' ? resolve(schemas[node.$ref.split('/').pop()!]!) : node;

const operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => HTTP_METHODS.includes(method))
    .map(([method, operation]) => ({ method, path, item, operation: operation as Json })),
);
const procedures: Record<string, unknown> = Object.fromEntries(
  proceduresOf(appRouter).map((entry) => [entry.path, entry.procedure]),
);

describe('operationIds', () => {
  it('are `<resource>-<action>` and unique; those of /api/v1 name their procedure, the trigger none', () => {
    const ids = operations.map((o) => o.operation.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, item, operation } of operations) {
      const id = operation.operationId as string;
      expect(id, `${method} ${path}`).toMatch(/^[a-z]+-[a-z][A-Za-z]*$/);
      // A client (and the fuzz test) reads `records-list` as the procedure `records.list`.
      const procedure = id.replace('-', '.');
      if (item.servers) expect(procedures[procedure], `${id} is not a procedure`).toBeUndefined();
      else expect(procedures[procedure], `${id} names no procedure`).toBeDefined();
    }
    expect(ids).toContain('workflows-trigger');
  });
});

describe('the trigger operation', () => {
  const trigger = doc.paths[TRIGGER_OPERATION_PATH];

  it('has a server whose URL followed by the path is the trigger URL, however the two are joined', () => {
    for (const [baseUrl, documentUrl] of [
      ['', 'http://localhost:3000/api/v1/openapi.json'],
      ['https://crm.example.com', 'https://crm.example.com/api/v1/openapi.json'],
      ['https://crm.example.com/', 'https://crm.example.com/api/v1/openapi.json'],
      ['https://example.com/crm/', 'https://example.com/crm/api/v1/openapi.json'],
    ] as const) {
      const built = build(baseUrl);
      const item = built.paths[TRIGGER_OPERATION_PATH];
      expect(Object.keys(built.paths)).not.toContain(TRIGGER_PATH_TEMPLATE);
      const [server] = item.servers as { url: string }[];
      const path = TRIGGER_OPERATION_PATH.replace('{workflowId}', 'wf_x');
      // What the API hands out as `trigger.url` (serialize.ts), under the same base.
      const real = `${(baseUrl || 'http://localhost:3000').replace(/\/+$/, '')}${triggerPath('wf_x')}`;
      expect(new URL(`${server!.url}${path}`, documentUrl).href, `${baseUrl}: appended, then resolved`).toBe(
        real,
      );
      expect(`${new URL(server!.url, documentUrl).href}${path}`, `${baseUrl}: resolved, then appended`).toBe(
        real,
      );
      // The REST operations keep the document's own server.
      expect(new URL(`${built.servers[0].url}/records`, documentUrl).href).toBe(
        `${real.slice(0, real.indexOf('/api/webhooks/'))}/api/v1/records`,
      );
    }
  });

  it('documents X-Request-Id on every answer, RateLimit-* once the call was counted, and TriggerError', () => {
    const responses = trigger.post.responses as Record<string, Json>;
    const counted = { always: [200, 409, 422, 429], sometimes: [400, 404, 500, 503], never: [401, 413, 415] };
    expect(
      Object.keys(responses)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...counted.always, ...counted.sometimes, ...counted.never].sort((a, b) => a - b));
    for (const [status, response] of Object.entries(responses)) {
      const headers = response.headers as Record<string, Json>;
      expect(headers['X-Request-Id'], status).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
        const header = headers[name];
        if (counted.never.includes(Number(status))) expect(header, `${status} ${name}`).toBeUndefined();
        else {
          expect(header, `${status} ${name}`).toMatchObject({ schema: { type: 'integer', minimum: 0 } });
          expect(header!.required, `${status} ${name}`).toBe(counted.always.includes(Number(status)));
        }
      }
      expect(Boolean(headers['Retry-After']), status).toBe(status === '429' || status === '503');
      const schema = response.content['application/json'].schema as Json;
      if (status === '200') expect(schema).toEqual({ $ref: '#/components/schemas/TriggerAccepted' });
      else expect(schema.allOf[0], status).toEqual({ $ref: '#/components/schemas/TriggerError' });
    }
    expect(schemas.TriggerError).toMatchObject({
      type: 'object',
      required: ['ok', 'error'],
      additionalProperties: false,
      properties: { ok: { const: false }, error: schemas.Error!.properties.error },
    });
  });
});

describe('the event feed', () => {
  it('types each event’s payload by its kind: a oneOf discriminated on `type`, payloads shared with the webhooks', () => {
    const event = schemas.Event!;
    expect(event.discriminator.propertyName).toBe('type');
    expect(Object.keys(event.discriminator.mapping).sort()).toEqual([...eventTypes].sort());
    expect(event.oneOf.map((variant: Json) => variant.$ref).sort()).toEqual(
      Object.values(event.discriminator.mapping).sort(),
    );
    for (const kind of eventTypes) {
      const variant = resolve({ $ref: event.discriminator.mapping[kind] });
      expect(variant.properties.type, kind).toEqual({ type: 'string', const: kind });
      expect(variant.required, kind).toEqual(['id', 'type', 'occurredAt', 'payload']);
      // The same component the webhook of that kind POSTs, referred to, not copied.
      const webhook = doc.webhooks[kind].post.requestBody.content['application/json'].schema;
      expect(variant.properties.payload.$ref, kind).toBe(webhook.$ref);
      expect(resolve(webhook).properties.event, kind).toEqual({ type: 'string', const: kind });
    }
  });
});

describe('a deal amount', () => {
  /** Every property named `amount` of every request body, with the operation it is in. */
  function amounts(): [string, Json][] {
    const found: [string, Json][] = [];
    for (const { method, path, operation } of operations) {
      const seen = new Set<Json>();
      const walk = (node: unknown) => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (node === null || typeof node !== 'object') return;
        const schema = resolve(node as Json);
        if (seen.has(schema)) return;
        seen.add(schema);
        for (const [key, value] of Object.entries(schema)) {
          if (key === 'properties' && (value as Json).amount)
            found.push([`${method.toUpperCase()} ${path}`, (value as Json).amount]);
          walk(value);
        }
      };
      walk(operation.requestBody?.content?.['application/json']?.schema);
    }
    return found;
  }

  it('says “at most 2 decimals” wherever it is an input, and states no multipleOf (docs/api.md)', () => {
    const found = amounts();
    expect(new Set(found.map(([operation]) => operation))).toEqual(
      new Set([
        'POST /deals',
        'PATCH /deals/{id}',
        'POST /deals/batch',
        'PATCH /deals/batch',
        // A CREATE_DEAL action's amount (a number or a template).
        'POST /workflows',
        'PATCH /workflows/{id}',
      ]),
    );
    for (const [at, schema] of found) {
      expect(schema.description, at).toMatch(/at most 2 decimals/);
      expect(JSON.stringify(schema), at).not.toContain('multipleOf');
    }
  });
});
