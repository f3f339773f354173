import { workflowActionSchema } from '@crm/domain';
import type { AnyRouter } from '@trpc/server';
import { forEachOpenApiProcedure, generateOpenApiDocument } from 'trpc-to-openapi';
import { z } from 'zod';
import type { ApiMeta } from '../trpc.ts';
import {
  ERROR_NAMES,
  errorResponse,
  errorSchema,
  headerComponents,
  IDEMPOTENCY_KEY_PARAMETER,
  parameterComponents,
  ref,
  SUCCESS_HEADERS,
  TAG_DESCRIPTIONS,
  WRITE_SUCCESS_HEADERS,
} from './components.ts';
import { triggerPaths } from './trigger.ts';
import { webhookSection } from './webhooks.ts';

type Json = Record<string, unknown>;
type OpenApiDocument = ReturnType<typeof generateOpenApiDocument>;
type RouteMeta = ApiMeta & { openapi: NonNullable<ApiMeta['openapi']> };

/** Statuses any authenticated endpoint can answer. */
const COMMON_ERRORS = [400, 401, 403, 429, 500, 503];
/**
 * Statuses any endpoint whose JSON body the server reads (every POST and PATCH) can answer as
 * well: the body checks, and the Idempotency-Key outcomes.
 */
const WRITE_ERRORS = [409, 413, 415, 422];

export interface DocumentOptions {
  /**
   * Public URL of the service, e.g. https://crm.example.com; the document's server is
   * `<baseUrl>/api/v1`. An empty string gives the relative server `/api/v1`.
   */
  baseUrl: string;
  version: string;
}

/**
 * The OpenAPI document of /api/v1, generated from the routers and then corrected to what the
 * server really sends: 201 where a procedure creates, the contract's error body instead of
 * the generator's, the rate-limit and request-id headers, and query parameters of POSTs.
 */
export function buildOpenApiDocument(router: AnyRouter, options: DocumentOptions): OpenApiDocument {
  const doc = generateOpenApiDocument(router, {
    title: 'CRM workspace API',
    version: options.version,
    baseUrl: `${options.baseUrl.replace(/\/$/, '')}/api/v1`,
    description:
      'Records in folders, comments and calls, pipelines and deals, tasks. Every call needs `Authorization: Bearer <API key>`. Successful bodies are `{ "data": … }` (lists add `meta`); errors are `{ "error": { code, message, details?, requestId } }`. Requests are limited per workspace (120 a minute by default); every response carries `X-Request-Id`.',
    license: { name: 'MIT', identifier: 'MIT' },
    contact: { name: 'CRM workspace service maintainers' },
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key (`crm_…`) created in the settings area or with the CLI.',
      },
    },
    paths: triggerPaths(options.baseUrl),
    // Components no procedure names directly: the actions union the workflow bodies refer to.
    defs: { WorkflowAction: workflowActionSchema },
  });
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const usedErrors = new Set<number>();
  const usedTags: string[] = [];
  forEachOpenApiProcedure(
    (router as { _def: { procedures: Record<string, never> } })._def.procedures,
    ({ meta, procedure }) => {
      const m = meta as RouteMeta;
      const operation = paths[m.openapi.path.replace(/\/$/, '')]?.[m.openapi.method.toLowerCase()];
      if (!operation) return;
      for (const status of fixOperation(operation, m)) usedErrors.add(status);
      describeParameters(operation, procedure);
      for (const tag of m.openapi.tags ?? []) if (!usedTags.includes(tag)) usedTags.push(tag);
    },
  );
  doc.servers = (doc.servers ?? []).map((server) => ({ ...server, description: 'REST API, version 1' }));
  doc.tags = usedTags.map((name) =>
    TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name },
  );

  const components = (doc.components ?? {}) as Json & { schemas?: Record<string, unknown> };
  for (const name of Object.keys(components.schemas ?? {})) {
    if (name.startsWith('error.')) delete components.schemas![name];
  }
  // Event payloads, one webhook per kind; their components (Record, Deal, Task) are the
  // same schemas the REST operations use, rendered alike.
  const section = webhookSection();
  (doc as unknown as Json).webhooks = section.webhooks;
  components.schemas = { ...section.schemas, ...components.schemas, Error: errorSchema() };
  components.headers = headerComponents();
  components.parameters = { ...(components.parameters as Json | undefined), ...parameterComponents() };
  components.responses = Object.fromEntries(
    [...usedErrors].sort((a, b) => a - b).map((status) => [ERROR_NAMES[status], errorResponse(status)]),
  );
  doc.components = components as OpenApiDocument['components'];
  dropSafeIntegerBounds(doc);
  return doc;
}

/** Rewrites one generated operation to the server's real answers; returns the error statuses it refers to. */
function fixOperation(operation: Json, meta: RouteMeta): number[] {
  const responses = operation.responses as Record<string, Json>;
  const success = responses['200']!;
  const successStatus = meta.successStatus ?? 200;
  const method = meta.openapi.method;
  const writes = method === 'POST' || method === 'PATCH';
  // A GET answers a single resource with an ETag (and 304 to If-None-Match), a list with Link;
  // a PATCH or DELETE takes If-Match (docs/api.md, "HTTP conventions").
  const single = method === 'GET' && meta.openapi.path.endsWith('}');
  const conditional = (method === 'PATCH' || method === 'DELETE') && !meta.openapi.path.endsWith('/batch');
  const headers = writes
    ? WRITE_SUCCESS_HEADERS
    : method === 'GET'
      ? {
          ...SUCCESS_HEADERS,
          ...(single
            ? { ETag: ref('headers', 'ETag') }
            : isPagedList(success)
              ? { Link: ref('headers', 'Link') }
              : {}),
        }
      : SUCCESS_HEADERS;
  const fixed: Record<string, unknown> = {};
  if (meta.alternativeSuccess) {
    fixed[String(meta.alternativeSuccess.status)] = {
      ...success,
      description: meta.alternativeSuccess.description,
      headers,
    };
  }
  fixed[String(successStatus)] = {
    ...success,
    description: successStatus === 201 ? 'Created' : 'OK',
    headers: successStatus === 201 ? { ...headers, Location: ref('headers', 'Location') } : headers,
  };
  if (single) {
    fixed['304'] = {
      description: 'Not modified: the ETag in If-None-Match is current',
      headers: { ETag: ref('headers', 'ETag'), 'X-Request-Id': ref('headers', 'X-Request-Id') },
    };
  }
  const statuses = [
    ...new Set([
      ...COMMON_ERRORS,
      ...(writes ? WRITE_ERRORS : []),
      ...(conditional ? [412] : []),
      ...(meta.errors ?? []),
    ]),
  ].sort((a, b) => a - b);
  for (const status of statuses) {
    const name = ERROR_NAMES[status];
    if (!name) throw new Error(`${method} ${meta.openapi.path}: no error response for status ${status}`);
    fixed[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  operation.responses = fixed;
  operation.security = [{ bearerAuth: [] }];
  if (writes) operation.parameters = [...((operation.parameters ?? []) as Json[]), IDEMPOTENCY_KEY_PARAMETER];
  const condition = single ? 'If-None-Match' : conditional ? 'If-Match' : null;
  if (condition)
    operation.parameters = [...((operation.parameters ?? []) as Json[]), ref('parameters', condition)];
  if (meta.queryParams?.length) moveBodyKeysToQuery(operation, meta.queryParams);
  relaxOptionalBody(operation);
  return statuses;
}

/**
 * The generator unwraps `.optional()` query inputs and wraps them again, and so loses a
 * description given on either, and the `param` metadata (a `deepObject` style) of the inner
 * schema; they are taken back from the procedure's input schema.
 */
function describeParameters(operation: Json, procedure: unknown) {
  const input = (procedure as { _def: { inputs: unknown[] } })._def.inputs[0];
  const shape = input instanceof z.ZodObject ? (input.shape as Record<string, z.ZodType>) : {};
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const schema = shape[String(parameter.name)];
    const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
    const description = schema?.description ?? inner?.description;
    if (!parameter.description && description) parameter.description = description;
    const { style, explode } = (inner?.meta()?.param ?? {}) as Json;
    if (style) Object.assign(parameter, { style, explode });
  }
}

function bodySchema(operation: Json) {
  const body = operation.requestBody as { content?: Record<string, { schema?: Json }> } | undefined;
  return body?.content?.['application/json']?.schema as
    | { properties?: Record<string, Json>; required?: string[] }
    | undefined;
}

function moveBodyKeysToQuery(operation: Json, keys: string[]) {
  const schema = bodySchema(operation);
  if (!schema?.properties) return;
  const parameters = (operation.parameters ?? []) as Json[];
  for (const key of keys) {
    const property = schema.properties[key];
    if (!property) continue;
    delete schema.properties[key];
    const { description, ...propertySchema } = property;
    parameters.push({
      in: 'query',
      name: key,
      required: schema.required?.includes(key) ?? false,
      ...(description ? { description } : {}),
      schema: propertySchema,
    });
    if (schema.required) schema.required = schema.required.filter((r) => r !== key);
  }
  operation.parameters = parameters;
}

/** The server reads a missing body as `{}`, so a body with no required key may be left out. */
function relaxOptionalBody(operation: Json) {
  const schema = bodySchema(operation);
  if (schema && !schema.required?.length) (operation.requestBody as Json).required = false;
}

/** `z.number().int()` documents ±2^53 bounds that say nothing to a reader; the real ranges are in descriptions. */
function dropSafeIntegerBounds(node: unknown) {
  if (Array.isArray(node)) {
    for (const item of node) dropSafeIntegerBounds(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const value of Object.values(schema)) dropSafeIntegerBounds(value);
}

/** True when a success response is a list: `{ data: [...], meta: { nextCursor, … } }`. */
function isPagedList(success: Json): boolean {
  const content = success.content as Record<string, { schema?: Json }> | undefined;
  const schema = content?.['application/json']?.schema;
  const properties = schema?.properties as Record<string, Json> | undefined;
  return (properties?.data as Json | undefined)?.type === 'array' && properties?.meta !== undefined;
}
