import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import {
  type ApiContext,
  type AppRouter,
  assertStorableInput,
  CONFIG_SCHEMA_PATH,
  collectRestRoutes,
  conditionalTwin,
  createApiContext,
  decodeQueryValues,
  fillLocation,
  matchRestRoute,
  pathParamsOf,
  RequestError,
  type RestRoute,
  rawPathParams,
  toErrorResponse,
} from '@crm/api';
import { DomainError, missing, type OutgoingFile, sqlStateOf } from '@crm/domain';
import { callTRPCProcedure } from '@trpc/server';
import type { Middleware, ParameterizedContext } from 'koa';
import { type GateDeps, passFileGate, passGate } from '../http/gate.ts';
import { requestHeader } from '../http/headers.ts';
import { logFailure, sendError } from '../http/send-error.ts';
import type { AppState } from '../http/state.ts';
import {
  allowList,
  type CorsPolicy,
  encodeBody,
  entityTag,
  ifMatch,
  nextPageUrl,
  noneMatch,
  restCors,
} from './http-conventions.ts';
import { beginIdempotent } from './idempotency.ts';
import { nestBracketKeys } from './query-string.ts';
import { readJsonBody } from './read-body.ts';
import { beginRequestTransaction, type RequestWork } from './request-transaction.ts';

export const REST_PREFIX = '/api/v1';
/** Documents under REST_PREFIX that the app's router serves: the OpenAPI document, the configuration's JSON Schema. */
const DOCUMENTS = new Set(['/openapi.json', CONFIG_SCHEMA_PATH]);

export interface RestOptions {
  cors: CorsPolicy;
  /** The URL clients reach the service at, for `Link`; the request's own origin when empty. */
  publicUrl?: string;
}

/** A page's envelope, as far as the conventions read it (`Link`, `meta.nextUrl`). */
interface Answer {
  data?: unknown;
  meta?: { nextCursor?: unknown; nextUrl?: unknown };
}

/**
 * Serves /api/v1 from the tRPC routers (docs/architecture.md, "The REST request path"). For
 * each request this layer finds the route (404, 405), authenticates and rate-limits, reads
 * the input (the path's parameters, the query string as the input schema reads it, the JSON
 * body: 413/415/400), calls the route's procedure through tRPC's `callTRPCProcedure` with the
 * context it made, and writes the answer with the HTTP conventions (docs/api.md): the status
 * the procedure set, `Location`, `Link`, a strong `ETag` and 304, compression, and a failure
 * as the REST error body ("Requests and responses").
 */
export function restApi(router: AppRouter, gate: GateDeps, options: RestOptions): Middleware<AppState> {
  const { db } = gate;
  const routes = collectRestRoutes(router);
  const publicUrl = options.publicUrl?.replace(/\/$/, '');
  /** Where clients reach the service, for `Location` and `Link`: PUBLIC_URL, or the request's own origin. */
  const baseOf = (ctx: ParameterizedContext<AppState>) => publicUrl || `${ctx.protocol}://${ctx.host}`;

  const cors = restCors(options.cors);

  return (ctx, next) => {
    if (ctx.method === 'OPTIONS') return answerOptions(ctx);
    return cors.actual(ctx, () => serve(ctx, next));
  };

  /** OPTIONS on a known path: its `Allow`, and a preflight's CORS headers (`restCors`). */
  function answerOptions(ctx: ParameterizedContext<AppState>): Promise<void> | void {
    const path = ctx.path.slice(REST_PREFIX.length) || '/';
    if (DOCUMENTS.has(path)) return cors.answerOptions(ctx, allowList(['GET']));
    const match = matchRestRoute(routes, 'OPTIONS', path);
    if (match.kind !== 'wrong-method') {
      ctx.vary('Origin');
      return sendError(ctx, new DomainError('NOT_FOUND', `No endpoint ${ctx.method} ${ctx.path}`));
    }
    return cors.answerOptions(ctx, allowList(match.allow));
  }

  async function serve(ctx: ParameterizedContext<AppState>, next: () => Promise<unknown>): Promise<unknown> {
    const path = ctx.path.slice(REST_PREFIX.length) || '/';
    if (DOCUMENTS.has(path)) return next();
    // HEAD is answered as GET without its body (Node leaves the body of a HEAD out).
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    const match = matchRestRoute(routes, method, path);
    if (match.kind === 'none')
      return sendError(ctx, new DomainError('NOT_FOUND', `No endpoint ${ctx.method} ${ctx.path}`));
    if (match.kind === 'wrong-method') {
      const allow = allowList(match.allow);
      ctx.set('Allow', allow.join(', '));
      return sendError(
        ctx,
        new RequestError(
          'METHOD_NOT_ALLOWED',
          `${ctx.method} is not allowed on ${ctx.path}; use ${allow.join(', ')}`,
        ),
      );
    }
    const route = match.route;
    ctx.state.route = `${REST_PREFIX}${route.path}`;
    let apiContext: ApiContext;
    let input: Record<string, unknown> | undefined;
    let work: RequestWork | null = null;
    const condition =
      route.method === 'PATCH' || route.method === 'DELETE' ? requestHeader(ctx.req, 'if-match') : '';
    const twin = condition ? conditionalTwin(routes, route) : undefined;
    try {
      if (condition && !twin) {
        throw new DomainError('VALIDATION_FAILED', 'If-Match applies to a single resource, not to a batch', {
          details: [{ path: 'If-Match', message: 'is not taken by a batch; send each change on its own' }],
        });
      }
      const actor = await (route.file ? passFileGate(ctx, gate) : passGate(ctx, gate));
      apiContext = createApiContext(db, gate.services, actor, ctx.state.requestId);
      const query = readQuery(ctx.querystring);
      const lists = nestBracketKeys(query.lists);
      if (route.file?.accepts) {
        const unexpected = [...Object.keys(query.values), ...Object.keys(query.lists)];
        if (unexpected.length > 0) {
          throw new DomainError(
            'VALIDATION_FAILED',
            `${route.method} ${route.path} takes no query parameters`,
            {
              details: unexpected.map((name) => ({
                path: name,
                message: 'is not a parameter of this operation',
              })),
            },
          );
        }
        // A file: the procedure reads the body as it streams in (docs/jobs.md, "Files"). It is
        // not kept for an Idempotency-Key: a repeated upload meets the job QUEUED (409).
        // Through a stream of its own: a refusal mid-file ends the reading without destroying
        // the request, whose rest is then read and dropped so that the 4xx reaches the client.
        const body = ctx.req.pipe(new PassThrough());
        input = {
          ...rawPathParams(route, path),
          file: {
            mediaType: requestHeader(ctx.req, 'content-type'),
            body,
            ...(ctx.req.headers['content-length']
              ? { declaredBytes: Number(ctx.req.headers['content-length']) }
              : {}),
          },
        };
      } else if (route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT') {
        const body = await readJsonBody(ctx.req);
        mergeQueryParams(body, query.values, route.queryParams);
        rejectPathKeys(body, route.pathParams);
        const begun = await beginIdempotent(ctx, db, actor, route.path, body, twin && 'repeatable read');
        if (begun === 'answered') return;
        // The work runs in the key's transaction, so it commits with the stored response.
        work = begun;
        // The body as sent; only the query parameters merged into it are read as the schema says.
        input = { ...body, ...rawPathParams(route, path) };
        decodeQueryValues(route.query, input, route.queryParams);
      } else {
        if (route.bodyParams.length > 0) {
          takeBodyParams(await readJsonBody(ctx.req), query.values, route.bodyParams, lists);
        }
        input = queryInput(lists, rawPathParams(route, path));
        decodeQueryValues(route.query, input);
      }
      if (!route.query.takesInput) input = undefined;
      if (twin) {
        work ??= await beginRequestTransaction(db);
        apiContext.db = work.db;
        await checkIfMatch(router, apiContext, twin, path, condition);
      } else if (work) {
        apiContext.db = work.db;
      }
    } catch (error) {
      await work?.finish(500, '').catch(() => undefined);
      return sendError(ctx, error);
    }
    // Koa must not answer: this layer writes to res. The reason phrase is left for Node to
    // derive from the final status.
    ctx.respond = false;
    ctx.status = 200;
    ctx.res.statusMessage = '';
    try {
      const answer = await callRoute(router, route, apiContext, input, twin !== undefined, ctx);
      if (answer.file) await sendFile(ctx, answer.status, answer.headers, answer.file);
      else await send(ctx, answer, work);
    } finally {
      // A request that ended without a response (writing it threw) keeps nothing.
      await work?.finish(500, '').catch(() => undefined);
    }
  }

  /**
   * Calls the route's procedure with the context the gate made, and turns what it answered
   * into the response: its status and headers (the procedure's, `Location` for a 201, `Link`
   * and `meta.nextUrl` for a page) and its JSON, or the REST error response of its failure,
   * whose 5xx is logged with the request's id (docs/operations.md).
   */
  async function callRoute(
    router: AppRouter,
    route: RestRoute,
    apiContext: ApiContext,
    input: unknown,
    conditional: boolean,
    ctx: ParameterizedContext<AppState>,
  ): Promise<Response> {
    let data: unknown;
    try {
      data = await callTRPCProcedure({
        router,
        path: route.procedure,
        type: route.type,
        ctx: apiContext,
        getRawInput: async () => input,
        signal: undefined,
        batchIndex: 0,
      });
    } catch (error) {
      if (route.file?.accepts) ctx.req.resume();
      const failure = toErrorResponse(conditional ? asConditionFailure(error) : error, apiContext.requestId);
      logFailure(ctx.state.log, error, failure.status, failure.body.error.code);
      return {
        status: failure.status,
        headers: failure.headers,
        body: JSON.stringify(failure.body),
        tagged: false,
      };
    }
    const status = apiContext.response.status;
    const headers: Record<string, string> = { ...apiContext.response.headers };
    if (route.file?.answers) return { status, headers, body: undefined, tagged: false, file: fileOf(data) };
    const answer = data as Answer | undefined;
    const created = answer?.data;
    if (route.location && status === 201 && created && typeof created === 'object') {
      const location = fillLocation(route.location, created as Record<string, unknown>);
      if (location) headers.Location = `${baseOf(ctx)}${REST_PREFIX}${location}`;
    }
    let tagged = false;
    if (route.method === 'GET' && answer) {
      if (Array.isArray(answer.data)) {
        const next = answer.meta?.nextCursor;
        if (typeof next === 'string' && next !== '' && route.cursorParam) {
          const url = nextPageUrl(baseOf(ctx), ctx.path, ctx.querystring, route.cursorParam, next);
          headers.Link = `<${url}>; rel="next"`;
          // The page's meta gets the same URL (docs/api.md, "Paging"), which the procedure,
          // knowing no URL, left null.
          (answer.meta ?? missing('the meta of a page')).nextUrl = url;
        }
      } else if (route.kind.single) {
        tagged = true;
      }
    }
    return { status, headers, body: JSON.stringify(data), tagged };
  }
}

/** What a procedure answered, as it goes out. */
interface Response {
  status: number;
  headers: Record<string, string>;
  /** The JSON; undefined when the procedure answered nothing. */
  body: string | undefined;
  /** A single resource: the body gets a strong ETag, and 304 when the client holds it. */
  tagged: boolean;
  /** A file answer (ApiMeta.file.answers), streamed instead of `body`. */
  file?: OutgoingFile;
}

/** The file of a file route's answer (`{ file }`). */
function fileOf(data: unknown): OutgoingFile {
  const file = (data as { file?: OutgoingFile } | undefined)?.file;
  if (!file) throw new Error('a file route answered no file');
  return file;
}

/**
 * Streams a file answer a part at a time, as it is read (never whole in memory), waiting for
 * the client to take each. Chunked: its length is not known before the end, so neither GET
 * nor HEAD sends a Content-Length. A failure once the
 * first bytes went out can only end the response early, which the client sees as a cut
 * transfer; it is logged.
 */
async function sendFile(
  ctx: ParameterizedContext<AppState>,
  status: number,
  headers: Record<string, string>,
  file: OutgoingFile,
) {
  const res = ctx.res;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', file.mediaType);
  res.setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
  // Chunked even when empty, so that GET and HEAD send the same headers.
  res.setHeader('Transfer-Encoding', 'chunked');
  res.statusCode = status;
  // HEAD: the GET's headers, and the file is not read.
  if (ctx.method === 'HEAD') return void res.end();
  try {
    for await (const chunk of file.body) {
      if (!res.write(chunk)) await once(res, 'drain');
    }
    res.end();
  } catch (error) {
    ctx.state.log.error({ err: error }, 'a file answer was cut off');
    res.destroy(error instanceof Error ? error : undefined);
  }
}

/**
 * Sends an answer: a single resource with its strong ETag, or 304 when the client holds
 * that version. A request holding an Idempotency-Key commits its work with the response
 * before it is sent, and when that commit fails the failure is sent instead. The body goes
 * out compressed when asked for, with its length.
 */
async function send(
  ctx: ParameterizedContext<AppState>,
  answer: Response,
  work: RequestWork | null,
): Promise<void> {
  const res = ctx.res;
  let { status, body } = answer;
  res.setHeader('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.tagged && status < 400 && body !== undefined) {
    const tag = entityTag(body);
    res.setHeader('ETag', tag);
    const held = requestHeader(ctx.req, 'if-none-match');
    if (held && noneMatch(held, tag)) {
      status = 304;
      res.removeHeader('Content-Type');
    }
  }
  if (work) {
    const location = answer.headers.Location;
    const kept: Record<string, string> = location !== undefined ? { Location: location } : {};
    try {
      await work.finish(status, body ?? '', kept);
    } catch (error) {
      // The work did not commit: the client must not hear that it succeeded.
      ctx.state.log.error({ err: error }, 'could not commit an idempotent request');
      const failure = toErrorResponse(error, ctx.state.requestId);
      status = failure.status;
      for (const [name, value] of Object.entries(failure.headers)) res.setHeader(name, value);
      body = JSON.stringify(failure.body);
    }
  }
  res.statusCode = status;
  if (status === 304 || body === undefined) {
    res.end();
    return;
  }
  const sent = encodeBody(requestHeader(ctx.req, 'accept-encoding'), body);
  if (sent.vary) ctx.vary('Accept-Encoding');
  if (sent.encoding) res.setHeader('Content-Encoding', sent.encoding);
  res.setHeader('Content-Length', String(sent.length));
  res.end(sent.body);
}

/**
 * If-Match on a PATCH or DELETE (docs/api.md, "HTTP conventions"): the current
 * representation is read with the GET procedure of `twin`, on the request's REPEATABLE READ
 * transaction, and its entity tag must be one the header lists (or the header is `*`);
 * otherwise 412. A resource that is not there answers as the write would (404).
 */
async function checkIfMatch(
  router: AppRouter,
  apiContext: ApiContext,
  twin: RestRoute,
  path: string,
  header: string,
): Promise<void> {
  const representation = await callTRPCProcedure({
    router,
    path: twin.procedure,
    type: twin.type,
    ctx: apiContext,
    getRawInput: async () => pathParamsOf(twin, path),
    signal: undefined,
    batchIndex: 0,
  });
  const current = entityTag(JSON.stringify(representation));
  if (!ifMatch(header, current)) {
    throw new RequestError(
      'PRECONDITION_FAILED',
      'The resource changed since the version If-Match names; read it again and retry',
      { currentVersion: current },
    );
  }
}

/** In a conditional write, a serialization failure means another write changed the resource first. */
function asConditionFailure(error: unknown): unknown {
  if (sqlStateOf(error) !== '40001') return error;
  return new RequestError(
    'PRECONDITION_FAILED',
    'The resource changed while this request was running; read it again and retry',
  );
}

/**
 * The query string, read into objects without a prototype (so `?constructor=` or
 * `?__proto__=` are plain keys, never Object.prototype's members): `values` as Koa gives it
 * (a repeated key holds a list), `lists` with a list for every key (for nestBracketKeys). A
 * key or value PostgreSQL cannot store (NUL, a lone surrogate) and the key `__proto__` are a
 * 400 naming the key (assertStorableInput); unknown keys are refused later, by the
 * procedure's schema or mergeQueryParams.
 */
function readQuery(querystring: string): {
  values: Record<string, string | string[]>;
  lists: Record<string, string[]>;
} {
  const values: Record<string, string | string[]> = Object.create(null);
  const lists: Record<string, string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(querystring)) {
    const list = lists[key];
    if (list) {
      list.push(value);
      values[key] = list;
    } else {
      lists[key] = [value];
      values[key] = value;
    }
  }
  assertStorableInput(values);
  return { values, lists };
}

/**
 * The input of a GET or DELETE: each query parameter's value (a list when it was repeated;
 * an object for bracketed names), then the path's parameters as sent. The route's decoder
 * then reads the values the input schema wants as numbers, booleans or lists.
 */
function queryInput(
  lists: Record<string, unknown[]>,
  pathInput: Record<string, string>,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, list] of Object.entries(lists)) {
    input[key] = list.length === 1 ? list[0] : list;
  }
  for (const key in pathInput) input[key] = pathInput[key];
  return input;
}

/**
 * A DELETE's inputs given as a JSON body (declared in its meta, `bodyParams`) instead of in the
 * query string: each must be text, one of those declared, and not also in the query string.
 */
function takeBodyParams(
  body: Record<string, unknown>,
  query: Record<string, string | string[]>,
  allowed: string[],
  lists: Record<string, unknown[]>,
) {
  for (const [key, value] of Object.entries(body)) {
    const refuse = (message: string) =>
      new DomainError('VALIDATION_FAILED', `${key}: ${message}`, { details: [{ path: key, message }] });
    if (!allowed.includes(key)) throw refuse('is not accepted in the body of this request');
    if (typeof value !== 'string') throw refuse('must be text');
    if (Object.hasOwn(query, key)) throw refuse('is given both in the query string and in the body');
    lists[key] = [value];
  }
}

/** POST/PATCH inputs a procedure takes from the query string (declared in its meta); anything else there is refused. */
function mergeQueryParams(
  body: Record<string, unknown>,
  query: Record<string, string | string[]>,
  allowed: string[],
) {
  for (const [key, value] of Object.entries(query)) {
    if (!allowed.includes(key)) {
      throw new DomainError('VALIDATION_FAILED', `Query parameter ${key} is not accepted here`, {
        details: [{ path: key, message: 'is not a known query parameter' }],
      });
    }
    if (Object.hasOwn(body, key)) {
      throw new DomainError('VALIDATION_FAILED', `${key} is a query parameter; do not send it in the body`, {
        details: [{ path: key, message: 'belongs in the query string' }],
      });
    }
    body[key] = value;
  }
  for (const key of allowed) {
    if (!(key in query) && Object.hasOwn(body, key)) {
      throw new DomainError('VALIDATION_FAILED', `${key} is a query parameter; do not send it in the body`, {
        details: [{ path: key, message: 'belongs in the query string' }],
      });
    }
  }
}

function rejectPathKeys(body: Record<string, unknown>, pathParams: string[]) {
  for (const key of pathParams) {
    if (key in body) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `${key} comes from the URL path; do not send it in the body`,
        {
          details: [{ path: key, message: 'is a path parameter' }],
        },
      );
    }
  }
}
