import { errorCodes } from '@crm/domain';
import type { AnyRouter } from '@trpc/server';
import { forEachOpenApiProcedure, generateOpenApiDocument } from 'trpc-to-openapi';
import type { ApiMeta } from '../trpc.ts';

type Json = Record<string, unknown>;
type OpenApiDocument = ReturnType<typeof generateOpenApiDocument>;

const ERROR_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'IdempotencyKeyReused',
  429: 'RateLimited',
  500: 'Internal',
  503: 'Unavailable',
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The body or query failed validation (details name each field)',
  401: 'No, unknown, revoked or expired API key',
  403: 'The API key lacks the scope for this call',
  404: 'No such resource in this workspace',
  409: 'A request with the same Idempotency-Key is still running',
  413: 'The body is larger than 1 MiB',
  415: 'The body is not application/json',
  422: 'The Idempotency-Key was used with another body',
  429: 'Over the rate limit; wait Retry-After seconds',
  500: 'Unexpected error; quote the requestId when reporting it',
  503: 'The database cannot be reached; retry after Retry-After seconds',
};

/** Statuses any authenticated endpoint can answer. */
const COMMON_ERRORS = [400, 401, 403, 429, 500, 503];
/** Statuses any endpoint that takes a JSON body can answer as well. */
const BODY_ERRORS = [413, 415];

const header = (description: string, schema: Json = { type: 'integer' }) => ({ description, schema });

const COMMON_HEADERS = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

export interface DocumentOptions {
  /** Public URL of the service, e.g. https://crm.example.com; the document's server is `<baseUrl>/api/v1`. */
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
      'Records in folders, comments and calls, pipelines and deals, tasks. Every call needs `Authorization: Bearer <API key>`. Successful bodies are `{ "data": … }` (lists add `meta`); errors are `{ "error": { code, message, details?, requestId } }`.',
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key (`crm_…`) created in the settings area or with the CLI.',
      },
    },
    tags: ['Records', 'Folders'],
  });
  const paths = doc.paths as Record<string, Record<string, Json>>;
  forEachOpenApiProcedure(
    (router as { _def: { procedures: Record<string, never> } })._def.procedures,
    ({ meta }) => {
      const m = meta as ApiMeta & { openapi: NonNullable<ApiMeta['openapi']> };
      const path = m.openapi.path.replace(/\/$/, '');
      const method = m.openapi.method.toLowerCase();
      const operation = paths[path]?.[method];
      if (!operation) return;
      fixOperation(operation, m);
    },
  );
  const components = (doc.components ?? {}) as Json & { schemas?: Record<string, unknown> };
  for (const name of Object.keys(components.schemas ?? {})) {
    if (name.startsWith('error.')) delete components.schemas![name];
  }
  components.schemas = { ...components.schemas, Error: errorSchema() };
  components.headers = {
    'X-Request-Id': header('Identifies the request in the service logs; echoes the client’s X-Request-Id.', {
      type: 'string',
    }),
    'RateLimit-Limit': header('Requests allowed per minute for the workspace'),
    'RateLimit-Remaining': header('Requests left in the current window'),
    'RateLimit-Reset': header('Seconds until the window frees requests'),
    'Retry-After': header('Whole seconds to wait before retrying (at least 1)'),
    'WWW-Authenticate': header('Always `Bearer`', { type: 'string' }),
  };
  components.responses = Object.fromEntries(
    Object.entries(ERROR_NAMES).map(([status, name]) => [name, errorResponse(Number(status))]),
  );
  doc.components = components as OpenApiDocument['components'];
  return doc;
}

function fixOperation(operation: Json, meta: ApiMeta & { openapi: NonNullable<ApiMeta['openapi']> }) {
  const responses = operation.responses as Record<string, Json>;
  const success = responses['200']!;
  const successStatus = meta.successStatus ?? 200;
  const fixed: Record<string, unknown> = {};
  fixed[String(successStatus)] = {
    ...success,
    description: successStatus === 201 ? 'Created' : 'OK',
    headers: COMMON_HEADERS,
  };
  if (meta.queryParams?.includes('upsert')) {
    fixed['200'] = {
      ...success,
      description: 'Upserted: an existing record was updated',
      headers: COMMON_HEADERS,
    };
  }
  const method = meta.openapi.method;
  const statuses = new Set([
    ...COMMON_ERRORS,
    ...(method === 'POST' || method === 'PATCH' ? BODY_ERRORS : []),
    ...(meta.errors ?? []),
  ]);
  for (const status of [...statuses].sort())
    fixed[String(status)] = { $ref: `#/components/responses/${ERROR_NAMES[status]}` };
  operation.responses = fixed;
  operation.security = [{ bearerAuth: [] }];
  if (meta.queryParams?.length) moveBodyKeysToQuery(operation, meta.queryParams);
}

function moveBodyKeysToQuery(operation: Json, keys: string[]) {
  const body = operation.requestBody as { content?: Record<string, { schema?: Json }> } | undefined;
  const schema = body?.content?.['application/json']?.schema as
    | { properties?: Record<string, Json>; required?: string[] }
    | undefined;
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

function errorSchema(): Json {
  return {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'requestId'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: Object.keys(errorCodes) },
          message: { type: 'string' },
          details: {
            type: 'array',
            description: 'Present for validation errors: one entry per offending field.',
            items: {
              type: 'object',
              required: ['path', 'message'],
              additionalProperties: false,
              properties: { path: { type: 'string', examples: ['data.stage'] }, message: { type: 'string' } },
            },
          },
          requestId: { type: 'string' },
        },
      },
    },
  };
}

function errorResponse(status: number): Json {
  const headers: Record<string, unknown> = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
  if (status === 429 || status === 503) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  if (status === 401) headers['WWW-Authenticate'] = { $ref: '#/components/headers/WWW-Authenticate' };
  return {
    description: ERROR_DESCRIPTIONS[status],
    headers,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}
