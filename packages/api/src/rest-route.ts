import { z } from 'zod';
import 'zod-openapi';
import { missing } from '@crm/domain';
import type { ApiMeta } from './trpc.ts';

/**
 * The REST route of a procedure, declared once next to it: `.meta(restRoute({ openapi: {
 * method, path, … }, successStatus, errors, … }))`. From the method and path it completes
 * what the HTTP conventions of /api/v1 add to every route (docs/api.md, "HTTP conventions"),
 * in the fields trpc-to-openapi's document generator reads: the response headers, the
 * conditional and idempotency request headers, and every error status the route can answer.
 * The document generator, the REST layer (rest-routes.ts, apps/server/src/rest) and the
 * server's conventions all read this one declaration.
 */
export function restRoute(meta: ApiMeta): ApiMeta {
  const openapi = meta.openapi;
  if (!openapi) return meta;
  const kind = routeKind(openapi.method, openapi.path, meta.resource);
  const headers: Record<string, z.ZodType> = { ...GATE_HEADERS };
  if (kind.writes) headers['Idempotent-Replayed'] = RESPONSE_HEADERS['Idempotent-Replayed'];
  if (kind.single) headers.ETag = RESPONSE_HEADERS.ETag;
  if (kind.list) headers.Link = RESPONSE_HEADERS.Link;
  if (meta.successStatus === 201) headers.Location = RESPONSE_HEADERS.Location;
  const requestHeaders: Record<string, z.ZodType> = {};
  if (kind.writes) requestHeaders['Idempotency-Key'] = REQUEST_HEADERS['Idempotency-Key'];
  if (kind.single) requestHeaders['If-None-Match'] = REQUEST_HEADERS['If-None-Match'];
  if (kind.conditional) requestHeaders['If-Match'] = REQUEST_HEADERS['If-Match'];
  const statuses = [
    ...new Set([
      // A route any valid key may call (`scope: 'none'`) never answers 403 for a scope.
      ...COMMON_ERRORS.filter((status) => status !== 403 || meta.scope !== 'none'),
      ...(kind.writes ? WRITE_ERRORS : []),
      ...(kind.conditional ? [412] : []),
      ...(meta.errors ?? []),
    ]),
  ].sort((a, b) => a - b);
  return {
    ...meta,
    openapi: {
      ...openapi,
      successDescription:
        meta.successStatus === 201 ? 'Created' : meta.successStatus === 202 ? 'Accepted' : 'OK',
      responseHeaders: z.object(headers),
      ...(Object.keys(requestHeaders).length > 0 ? { requestHeaders: z.object(requestHeaders) } : {}),
      errorResponses: Object.fromEntries(
        statuses.map((status) => [status, ERROR_SUMMARIES[status] ?? missing('ERROR_SUMMARIES[status]')]),
      ),
    },
  };
}

/** What the conventions of a route depend on, from its method and path. */
export interface RouteKind {
  /** A GET of one resource: a strong ETag, and 304 to If-None-Match. */
  single: boolean;
  /** A GET of a paged list: `Link` to the next page. */
  list: boolean;
  /** A PATCH or DELETE of one resource: If-Match, 412 when stale. */
  conditional: boolean;
  /** A POST or PATCH: a JSON body, Idempotency-Key. */
  writes: boolean;
}

/**
 * A GET whose path ends in a parameter reads one resource, unless declared `resource: 'list'`
 * (`/records/{id}/related/{field}`); any other GET reads a paged list, except one declared
 * `resource: 'volatile'` (`/me`). A PATCH or DELETE of a resource (not of a batch) is
 * conditional.
 */
export function routeKind(method: string, path: string, resource?: 'volatile' | 'list'): RouteKind {
  const single = method === 'GET' && /\}\/?$/.test(path) && resource !== 'list';
  return {
    single,
    list: method === 'GET' && !single && resource !== 'volatile',
    conditional: (method === 'PATCH' || method === 'DELETE') && !/\/batch\/?$/.test(path),
    writes: method === 'POST' || method === 'PATCH',
  };
}

/** Statuses any authenticated endpoint can answer. */
const COMMON_ERRORS = [400, 401, 403, 429, 500, 503];
/**
 * Statuses any endpoint whose JSON body the server reads (every POST and PATCH) can answer as
 * well: the body checks, and the Idempotency-Key outcomes.
 */
const WRITE_ERRORS = [409, 413, 415, 422];

/** One line per error status; the document's shared error responses say the rest. */
const ERROR_SUMMARIES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition failed',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Idempotency key reused',
  429: 'Rate limited',
  500: 'Internal error',
  503: 'Unavailable',
};

/** Response headers, each a component of the document (`header.id`). */
const RESPONSE_HEADERS = {
  'X-Request-Id': z
    .string()
    .min(1)
    .meta({
      description: 'Identifies the request in the service logs; echoes the client’s X-Request-Id.',
      header: { id: 'X-Request-Id' },
    }),
  'RateLimit-Limit': z
    .int()
    .min(0)
    .meta({
      description: 'Requests allowed per minute for the workspace',
      header: { id: 'RateLimit-Limit' },
    }),
  'RateLimit-Remaining': z
    .int()
    .min(0)
    .meta({ description: 'Requests left in the current window', header: { id: 'RateLimit-Remaining' } }),
  'RateLimit-Reset': z
    .int()
    .min(0)
    .meta({ description: 'Seconds until the window frees requests', header: { id: 'RateLimit-Reset' } }),
  'Retry-After': z
    .int()
    .min(1)
    .meta({
      description: 'Whole seconds to wait before retrying (at least 1)',
      header: { id: 'Retry-After' },
    }),
  ETag: z
    .string()
    .regex(/^"[A-Za-z0-9_-]+"$/)
    .meta({
      description: 'A strong entity tag of this representation; send it in If-None-Match or If-Match',
      header: { id: 'ETag' },
    }),
  Location: z.url().meta({
    description: 'The URL of the new resource, where a GET reads it',
    format: 'uri',
    header: { id: 'Location' },
  }),
  Link: z
    .string()
    .optional()
    .meta({
      description: 'The next page: `<URL of the same list with cursor set>; rel="next"`, when there is one.',
      header: { id: 'Link' },
    }),
  'Idempotent-Replayed': z
    .enum(['true'])
    .optional()
    .meta({
      description:
        'Present (`true`) when this is the stored response of an earlier request with the same Idempotency-Key.',
      header: { id: 'Idempotent-Replayed' },
    }),
  'WWW-Authenticate': z
    .string()
    .regex(/^Bearer/)
    .meta({ description: 'The authentication scheme to use: `Bearer`', header: { id: 'WWW-Authenticate' } }),
};

/** Headers of every response the gate let through: the request id and the rate-limit state. */
const GATE_HEADERS = {
  'X-Request-Id': RESPONSE_HEADERS['X-Request-Id'],
  'RateLimit-Limit': RESPONSE_HEADERS['RateLimit-Limit'],
  'RateLimit-Remaining': RESPONSE_HEADERS['RateLimit-Remaining'],
  'RateLimit-Reset': RESPONSE_HEADERS['RateLimit-Reset'],
};

/** Request headers of the conventions, each a parameter component of the document (`param.id`). */
const REQUEST_HEADERS = {
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .meta({
      description:
        'Makes a retry safe: the same key with the same request within 24 h returns the first response again (with `Idempotent-Replayed: true`) and does nothing; with another request it is a 422; while the first is still running, a 409.',
      param: { id: 'Idempotency-Key' },
    }),
  'If-None-Match': z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        'ETags the client holds (or `*`): when the current one is among them, the answer is 304 without a body.',
      param: { id: 'If-None-Match' },
    }),
  'If-Match': z
    .string()
    .min(1)
    .optional()
    .meta({
      description:
        'The ETag of the version this write is based on (from the GET of the resource, or of the enclosing resource for a field or a stage), or `*`: when the resource changed since, the answer is 412 and nothing is written.',
      param: { id: 'If-Match' },
    }),
};
