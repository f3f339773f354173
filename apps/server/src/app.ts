import {
  type ApiServices,
  type AppRouter,
  appRouter,
  buildConfigSchema,
  buildOpenApiDocument,
  CONFIG_SCHEMA_PATH,
  RequestError,
} from '@crm/api';
import type { Database } from '@crm/db';
import { ApiKeyCache, DomainError, RateLimitBatcher, type SignInLimits } from '@crm/domain';
import { Router } from '@koa/router';
import Koa from 'koa';
import type pg from 'pg';
import { apiReference, DOCS_PATH } from './http/api-reference.ts';
import { authRoutes } from './http/auth-routes.ts';
import type { GateDeps } from './http/gate.ts';
import { databaseReady } from './http/health.ts';
import type { RequestTracker } from './http/in-flight.ts';
import { TRPC_PREFIX, trpcApi } from './http/mount-trpc.ts';
import { type RequestObserver, requestContext } from './http/request-id.ts';
import { sendError } from './http/send-error.ts';
import type { AppState } from './http/state.ts';
import { DEFAULT_WEB_DIR, webApp } from './http/web-app.ts';
import type { Logger } from './logger.ts';
import { MCP_PATH, mcpEndpoint } from './mcp/mount-mcp.ts';
import { originPolicy } from './mcp/origin.ts';
import { OAuth, oauthEndpoints, passTokenGate } from './oauth/mount-oauth.ts';
import { type CorsPolicy, compressResponses, readCorsOrigins } from './rest/http-conventions.ts';
import { REST_PREFIX, restApi } from './rest/mount-rest.ts';
import { TRIGGER_PATH, triggerEndpoint, triggerErrorBody } from './workflows/trigger-endpoint.ts';

export interface AppDeps {
  db: Database;
  services: ApiServices;
  /**
   * The process's verified API keys; the service keeps it listening for changes. Default: a
   * cache that is never told it may keep keys, so every request looks its key up.
   */
  keys?: ApiKeyCache;
  /** Counts requests against the rate limits; default a batcher writing through `db`. */
  limits?: RateLimitBatcher;
  pool: pg.Pool;
  logger: Logger;
  /** URL clients reach the service at, for the OpenAPI document; '' makes its server relative (`/api/v1`). */
  publicUrl: string;
  version: string;
  /**
   * One reverse proxy in front: X-Forwarded-Proto gives the scheme and the right-most
   * X-Forwarded-For entry the client address. Nothing else forwarded is believed.
   */
  trustProxy?: boolean;
  /** Failed sign-ins allowed per 15 minutes (SIGN_IN_MAX_FAILURES_*). */
  signInLimits?: SignInLimits;
  /** Counts requests in flight for a graceful shutdown. */
  tracker?: RequestTracker;
  router?: AppRouter;
  /** The built web app (default apps/web/dist); its pages are served for browser navigations. */
  webDir?: string;
  /** Origins allowed to call /api/v1 from a browser (CORS_ORIGINS); none by default. */
  cors?: CorsPolicy;
  /** Told about every finished request (duration by route template and status). */
  metrics?: RequestObserver;
}

const GET_ONLY = new Set([
  '/healthz',
  '/readyz',
  `${REST_PREFIX}/openapi.json`,
  `${REST_PREFIX}${CONFIG_SCHEMA_PATH}`,
]);

/** Builds the Koa app without listening, so tests and the server share it. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const router = deps.router ?? appRouter;
  const oauth = new OAuth(deps.db, () => deps.services.baseUrl, deps.trustProxy ?? false);
  const gate: GateDeps = {
    db: deps.db,
    services: deps.services,
    keys: deps.keys ?? new ApiKeyCache(deps.db),
    limits: deps.limits ?? new RateLimitBatcher(deps.db),
    // OAuth apps' access tokens pass the same gate as keys (docs/apps.md).
    tokens: (ctx, source) => passTokenGate(ctx, gate, oauth, source),
  };
  // maxIpsCount 1: ctx.ip is the address the proxy appended, not one the client sent along.
  const app = new Koa<AppState>({ proxy: deps.trustProxy ?? false, maxIpsCount: 1 });
  app.silent = true;
  if (deps.tracker) app.use(deps.tracker.middleware);
  app.use(requestContext(deps.logger, deps.metrics));
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      sendError(ctx, error);
    }
  });

  // /api/v1 requests (nearly all of them) go straight to the REST layer, which has its own
  // route table; what it does not serve (the OpenAPI document) falls through to the router.
  const cors = deps.cors ?? readCorsOrigins(undefined);
  const rest = restApi(router, gate, {
    cors,
    ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
  });
  const restPrefix = `${REST_PREFIX}/`;
  const compress = compressResponses();
  app.use((ctx, next) => (ctx.path.startsWith(restPrefix) ? compress(ctx, () => rest(ctx, next)) : next()));

  let openApiJson: string | undefined;
  const routes = new Router<AppState>();
  routes.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  routes.get('/readyz', async (ctx) => {
    const ready = await databaseReady(deps.pool);
    ctx.status = ready ? 200 : 503;
    if (!ready) ctx.set('Retry-After', '5');
    ctx.body = { status: ready ? 'ready' : 'database unreachable' };
  });
  routes.get(`${REST_PREFIX}/openapi.json`, (ctx) => {
    openApiJson ??= JSON.stringify(
      buildOpenApiDocument(router, { baseUrl: deps.publicUrl, version: deps.version }),
    );
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = openApiJson;
  });
  let configSchemaJson: string | undefined;
  routes.get(`${REST_PREFIX}${CONFIG_SCHEMA_PATH}`, (ctx) => {
    configSchemaJson ??= JSON.stringify(buildConfigSchema(deps.publicUrl));
    ctx.type = 'application/schema+json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = configSchemaJson;
  });
  routes.post(TRIGGER_PATH, triggerEndpoint(gate));
  routes.all(TRIGGER_PATH, (ctx) => {
    ctx.set('Allow', 'POST');
    const refusal = new RequestError(
      'METHOD_NOT_ALLOWED',
      `${ctx.method} is not allowed on a trigger URL; use POST`,
    );
    sendError(ctx, refusal, triggerErrorBody);
  });
  routes.all(`${REST_PREFIX}/{*rest}`, rest);
  routes.all(`${TRPC_PREFIX}/{*rest}`, trpcApi(router, gate));
  routes.all(
    MCP_PATH,
    mcpEndpoint({ router, gate, origins: originPolicy(deps.publicUrl, cors), version: deps.version, oauth }),
  );
  app.use(routes.routes());
  app.use(oauthEndpoints(oauth, deps.db));
  app.use(
    authRoutes(deps.db, {
      publicUrl: deps.publicUrl,
      ...(deps.signInLimits ? { signInLimits: deps.signInLimits } : {}),
    }).routes(),
  );
  // The API reference's page and script, the script (4 MB) compressed as it streams out.
  const docs = apiReference();
  app.use((ctx, next) =>
    ctx.path.startsWith(`${DOCS_PATH}/`) ? compress(ctx, () => docs(ctx, next)) : docs(ctx, next),
  );
  app.use(webApp(deps.webDir ?? DEFAULT_WEB_DIR));
  app.use((ctx) => {
    if (GET_ONLY.has(ctx.path)) {
      ctx.set('Allow', 'GET, HEAD');
      sendError(
        ctx,
        new RequestError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}; use GET`),
      );
    } else {
      sendError(ctx, new DomainError('NOT_FOUND', `Nothing at ${ctx.path}`));
    }
  });
  return app;
}
