import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type ApiContext,
  type AppRouter,
  assertStorableInput,
  collectRestRoutes,
  conditionalTwin,
  createApiContext,
  type ErrorResponse,
  fillLocation,
  matchRestRoute,
  pathParamsOf,
  type RestRoute,
  rawPathParams,
  toErrorResponse,
} from '@crm/api';
import { DomainError, missing, sqlStateOf } from '@crm/domain';
import type { Middleware, ParameterizedContext } from 'koa';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { type GateDeps, passGate } from '../http/gate.ts';
import { requestHeader } from '../http/headers.ts';
import { logFailure, sendError } from '../http/send-error.ts';
import type { AppState } from '../http/state.ts';
import {
  allowList,
  answerOptions,
  applyCors,
  type CorsPolicy,
  encodeBody,
  entityTag,
  ifMatch,
  nextPageUrl,
  noneMatch,
} from './http-conventions.ts';
import { beginIdempotent } from './idempotency.ts';
import { nestBracketKeys } from './query-string.ts';
import { readJsonBody } from './read-body.ts';
import { beginRequestTransaction, type RequestWork } from './request-transaction.ts';

export const REST_PREFIX = '/api/v1';

type RequestWithBody = IncomingMessage & { body?: unknown; query?: unknown };

/** What the conventions need of a request while the adapter answers it. */
interface RequestFacts {
  ctx: ParameterizedContext<AppState>;
  route: RestRoute;
  /** A PATCH or DELETE with If-Match: a serialization failure means the resource changed. */
  conditional: boolean;
  /** Set by responseMeta on a GET of a single resource: the body gets an ETag. */
  tagged: boolean;
  /** The request's path as the client sent it (before the adapter's path is cut out of it), for `Link`. */
  path: string;
}
/**
 * What this layer keeps of a request while the adapter answers it: the context it made, the
 * facts above (whose Koa context holds the request's state, with the logger that reports
 * failures the adapter hands over), the procedure it routed to, and the REST error
 * response computed for a failure, sent in place of the adapter's. One object, hung off the request and off its ApiContext under a symbol: the
 * adapter's hooks are handed one or the other.
 */
interface Exchange {
  apiContext: ApiContext;
  facts: RequestFacts;
  /** The procedure this layer routed the request to, handed to the adapter (`resolveProcedure`). */
  procedure: { path: string; pathInput: Record<string, string> };
  failure?: ErrorResponse;
}
const EXCHANGE = Symbol('rest exchange');
type ExchangeHolder = { [EXCHANGE]?: Exchange };

function exchangeOf(holder: IncomingMessage | ApiContext | undefined): Exchange | undefined {
  return (holder as ExchangeHolder | undefined)?.[EXCHANGE];
}

export interface RestOptions {
  cors: CorsPolicy;
  /** The URL clients reach the service at, for `Link`; the request's own origin when empty. */
  publicUrl?: string;
}

/**
 * Serves /api/v1 from the tRPC routers through trpc-to-openapi. Before the adapter runs this
 * layer answers unknown paths (404) and wrong methods (405), authenticates and rate-limits, and
 * reads the JSON body itself (413/415/400): the adapter takes a body already on `req.body`. The
 * adapter's own error body is replaced with the REST error body (docs/api.md, "Requests and
 * responses").
 */
export function restApi(router: AppRouter, gate: GateDeps, options: RestOptions): Middleware<AppState> {
  const { db } = gate;
  const routes = collectRestRoutes(router);
  const publicUrl = options.publicUrl?.replace(/\/$/, '');
  /** Where clients reach the service, for `Location` and `Link`: PUBLIC_URL, or the request's own origin. */
  const baseOf = (ctx: ParameterizedContext<AppState>) => publicUrl || `${ctx.protocol}://${ctx.host}`;
  const handler = createOpenApiNodeHttpHandler({
    router,
    maxBodySize: 1024 * 1024,
    // The route table matched the request already: the adapter does not match it again.
    resolveProcedure: (req: IncomingMessage) => exchangeOf(req)?.procedure,
    createContext: ({ req }: { req: IncomingMessage }) =>
      (exchangeOf(req) ?? missing('exchangeOf(req)')).apiContext,
    responseMeta: ({ ctx, errors, data }: { ctx?: ApiContext; errors: unknown[]; data?: unknown[] }) => {
      if (errors.length > 0) {
        const response = toErrorResponse(asConditionFailure(ctx, errors[0]), ctx?.requestId ?? '');
        const exchange = exchangeOf(ctx);
        if (exchange) exchange.failure = response;
        return { status: response.status, headers: response.headers };
      }
      const headers = { ...(ctx?.response.headers ?? {}) };
      const facts = exchangeOf(ctx)?.facts;
      const body = data?.[0] as
        | { data?: unknown; meta?: { nextCursor?: unknown; nextUrl?: unknown } }
        | undefined;
      const created = body?.data;
      if (facts?.route.location && ctx?.response.status === 201 && created && typeof created === 'object') {
        const location = fillLocation(facts.route.location, created as Record<string, unknown>);
        if (location) headers.Location = `${baseOf(facts.ctx)}${REST_PREFIX}${location}`;
      }
      if (facts && facts.route.method === 'GET' && body) {
        if (Array.isArray(body.data)) {
          const next = body.meta?.nextCursor;
          if (typeof next === 'string' && next !== '' && facts.route.cursorParam) {
            const url = nextPageUrl(
              baseOf(facts.ctx),
              facts.path,
              facts.ctx.querystring,
              facts.route.cursorParam,
              next,
            );
            headers.Link = `<${url}>; rel="next"`;
            // The body is serialized after this hook: the page's meta gets the same URL
            // (docs/api.md, "Paging"), which the procedure, knowing no URL, left null.
            (body.meta ?? missing('body.meta')).nextUrl = url;
          }
        } else if (facts.route.kind.single) {
          facts.tagged = true;
        }
      }
      return { status: ctx?.response.status ?? 200, headers };
    },
    // Called with every error the adapter answers, also those before createContext (when
    // responseMeta has no ctx): the REST error body is kept for sendDraft, and a 5xx
    // logs its cause with the request's id (docs/operations.md).
    onError: ({ error, req }: { error: unknown; req: IncomingMessage }) => {
      const exchange = exchangeOf(req);
      if (!exchange) return;
      const { apiContext, facts } = exchange;
      const response = toErrorResponse(asConditionFailure(apiContext, error), apiContext.requestId);
      exchange.failure = response;
      logFailure(facts.ctx.state.log, error, response.status, response.body.error.code);
    },
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

  return async (ctx, next) => {
    const path = ctx.path.slice(REST_PREFIX.length) || '/';
    applyCors(ctx, options.cors);
    if (path === '/openapi.json') {
      if (ctx.method === 'OPTIONS') return answerOptions(ctx, options.cors, allowList(['GET']));
      return next();
    }
    // HEAD is answered as GET without its body (Node leaves the body of a HEAD out).
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    const match = matchRestRoute(routes, method, path);
    if (match.kind === 'none')
      return sendError(ctx, new DomainError('NOT_FOUND', `No endpoint ${ctx.method} ${ctx.path}`));
    if (match.kind === 'wrong-method') {
      const allow = allowList(match.allow);
      if (method === 'OPTIONS') return answerOptions(ctx, options.cors, allow);
      ctx.set('Allow', allow.join(', '));
      return sendError(
        ctx,
        new DomainError(
          'METHOD_NOT_ALLOWED',
          `${ctx.method} is not allowed on ${ctx.path}; use ${allow.join(', ')}`,
        ),
      );
    }
    const route = match.route;
    ctx.state.route = `${REST_PREFIX}${route.path}`;
    let apiContext: ApiContext;
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
      const actor = await passGate(ctx, gate);
      apiContext = createApiContext(db, gate.services, actor, ctx.state.requestId);
      const query = readQuery(ctx.querystring);
      // The adapter takes the query from req.query when it is there (an object without a
      // prototype: its own parsing trips on keys such as `constructor`), bracketed names
      // (`filter[title]`) read into objects.
      (ctx.req as RequestWithBody).query = nestBracketKeys(query.lists);
      if (route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT') {
        const body = await readJsonBody(ctx.req);
        mergeQueryParams(body, query.values, route.queryParams);
        rejectPathKeys(body, route.pathParams);
        (ctx.req as RequestWithBody).body = body;
        // The adapter insists on a JSON content type even for an empty body.
        ctx.req.headers['content-type'] = 'application/json';
        const begun = await beginIdempotent(ctx, db, actor, route.path, body, twin && 'repeatable read');
        if (begun === 'answered') return;
        // The work runs in the key's transaction, so it commits with the stored response.
        work = begun;
      } else if (route.bodyParams.length > 0) {
        takeBodyParams(
          await readJsonBody(ctx.req),
          query.values,
          route.bodyParams,
          ctx.req as RequestWithBody,
        );
      }
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
    const exchange: Exchange = {
      apiContext,
      procedure: { path: route.procedure, pathInput: rawPathParams(route, path) },
      facts: {
        ctx,
        route,
        conditional: twin !== undefined,
        tagged: false,
        path: ctx.path,
      },
    };
    (ctx.req as ExchangeHolder)[EXCHANGE] = exchange;
    (apiContext as ExchangeHolder)[EXCHANGE] = exchange;
    // Koa must not answer: the tRPC handler writes to res. Its status defaults to 200, and
    // the reason phrase is left for Node to derive from the final status.
    ctx.respond = false;
    ctx.status = 200;
    ctx.res.statusMessage = '';
    // The adapter routes on req.url, without our prefix, and on req.method.
    ctx.req.url = (ctx.req.url ?? missing('ctx.req.url')).slice(REST_PREFIX.length) || '/';
    ctx.req.method = method;
    const draft = new DraftResponse(ctx.res);
    try {
      await handler(ctx.req, draft as unknown as ServerResponse);
      await sendDraft(ctx, exchange, draft, work);
    } finally {
      // A request that ended without a response (the adapter threw) keeps nothing.
      await work?.finish(500, '').catch(() => undefined);
    }
  };
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
  const caller = router.createCaller(apiContext) as unknown as Record<string, unknown>;
  const read = twin.procedure
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
    input: unknown,
  ) => Promise<unknown>;
  const current = entityTag(JSON.stringify(await read(pathParamsOf(twin, path))));
  if (!ifMatch(header, current)) {
    throw new DomainError(
      'PRECONDITION_FAILED',
      'The resource changed since the version If-Match names; read it again and retry',
      { currentVersion: current },
    );
  }
}

/** In a conditional write, a serialization failure means another write changed the resource first. */
function asConditionFailure(apiContext: ApiContext | undefined, error: unknown): unknown {
  const facts = exchangeOf(apiContext)?.facts;
  if (!facts?.conditional || sqlStateOf(error) !== '40001') return error;
  return new DomainError(
    'PRECONDITION_FAILED',
    'The resource changed while this request was running; read it again and retry',
  );
}

/**
 * The query string, read into objects without a prototype (so `?constructor=` or
 * `?__proto__=` are plain keys, never Object.prototype's members): `values` as Koa gives it
 * (a repeated key holds a list), `lists` as the adapter reads `req.query` (a list for every
 * key). A key or value PostgreSQL cannot store (NUL, a lone surrogate) and the key
 * `__proto__` are a 400 naming the key (assertStorableInput); unknown keys are refused later,
 * by the procedure's schema or mergeQueryParams.
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
 * A DELETE's inputs given as a JSON body (declared in its meta, `bodyParams`) instead of in the
 * query string: each must be text, one of those declared, and not also in the query string.
 */
function takeBodyParams(
  body: Record<string, unknown>,
  query: Record<string, string | string[]>,
  allowed: string[],
  req: RequestWithBody,
) {
  for (const [key, value] of Object.entries(body)) {
    const refuse = (message: string) =>
      new DomainError('VALIDATION_FAILED', `${key}: ${message}`, { details: [{ path: key, message }] });
    if (!allowed.includes(key)) throw refuse('is not accepted in the body of this request');
    if (typeof value !== 'string') throw refuse('must be text');
    if (Object.hasOwn(query, key)) throw refuse('is given both in the query string and in the body');
    (req.query as Record<string, unknown[]>)[key] = [value];
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

/**
 * What the adapter answers, written here rather than to the response: its status, headers and
 * body are then sent by `sendDraft`, which applies the conventions to them. The adapter only
 * sets `statusCode`, calls `setHeader` and `end`, and, should anything read the request's
 * abort signal, listens for the response's `close`, which is passed on to the response.
 *
 * The adapter wrote to the response itself before, its `end` replaced on every response by
 * one that did this work: a function stored on each ServerResponse made V8 keep every
 * request's objects through two young-generation collections into the old one, to be freed
 * only by full collections (docs/architecture.md, "Cost per request").
 */
class DraftResponse {
  statusCode = 200;
  readonly headers: Record<string, string | number | readonly string[]> = {};
  body: string | undefined = undefined;
  ended = false;

  constructor(private readonly response: ServerResponse) {}

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers[name] = value;
    return this;
  }

  end(chunk?: unknown): this {
    this.ended = true;
    if (typeof chunk === 'string') this.body = chunk;
    return this;
  }

  get writableEnded(): boolean {
    return this.response.writableEnded;
  }

  once(event: string, listener: (...args: unknown[]) => void): this {
    this.response.once(event, listener);
    return this;
  }

  off(event: string, listener: (...args: unknown[]) => void): this {
    this.response.off(event, listener);
    return this;
  }
}

/**
 * Sends what the adapter answered. A failure gets the REST error body (built from the
 * error the adapter handed to responseMeta or onError); a single resource a strong ETag, and
 * 304 when the client holds that version. A request holding an Idempotency-Key commits its
 * work with the response before it is sent, and when that commit fails the failure is sent
 * instead. The body goes out compressed when asked for, with its length.
 */
async function sendDraft(
  ctx: ParameterizedContext<AppState>,
  exchange: Exchange,
  draft: DraftResponse,
  work: RequestWork | null,
): Promise<void> {
  const res = ctx.res;
  const requestId = exchange.apiContext.requestId;
  let status = draft.ended ? draft.statusCode : 500;
  let body = draft.body;
  // An adapter that never ended its answer failed: a 500 with the REST error body goes out.
  if (!draft.ended) res.setHeader('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(draft.headers)) res.setHeader(name, value);
  if (status >= 400) {
    const failure =
      exchange.failure ?? toErrorResponse(new DomainError('INTERNAL', 'Internal error'), requestId);
    body = JSON.stringify(failure.body);
  } else if (exchange.facts.tagged && body !== undefined) {
    const tag = entityTag(body);
    res.setHeader('ETag', tag);
    const held = requestHeader(ctx.req, 'if-none-match');
    if (held && noneMatch(held, tag)) {
      status = 304;
      res.removeHeader('Content-Type');
    }
  }
  if (work) {
    const location = draft.headers.Location;
    const kept: Record<string, string> = typeof location === 'string' ? { Location: location } : {};
    try {
      await work.finish(status, body ?? '', kept);
    } catch (error) {
      // The work did not commit: the client must not hear that it succeeded.
      ctx.state.log.error({ err: error }, 'could not commit an idempotent request');
      const failure = toErrorResponse(error, requestId);
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
