import { timingSafeEqual } from 'node:crypto';
import type { ApiServices } from '@crm/api';
import type { Database } from '@crm/db';
import {
  type Actor,
  type ApiKeyCache,
  authenticateSession,
  DomainError,
  type RateLimitBatcher,
  workspaceRateLimitSubject,
} from '@crm/domain';
import type { ParameterizedContext } from 'koa';
import { requestHeader } from './headers.ts';
import type { AppState } from './state.ts';

export interface GateDeps {
  db: Database;
  services: ApiServices;
  /** The process's verified keys (docs/operations.md, "API keys in memory"). */
  keys: ApiKeyCache;
  /** Counts requests against the rate limits, in batches (docs/operations.md, "Rate limits in batches"). */
  limits: RateLimitBatcher;
  /**
   * The actor of an OAuth access token (oauth/mount-oauth.ts), or null when the bearer is an
   * API key or there is none; throws 401 for a token that is not one of this surface.
   */
  tokens?: (ctx: ParameterizedContext<AppState>, source: 'rest' | 'trpc' | 'mcp') => Promise<Actor | null>;
}

/**
 * Authentication and the workspace rate limit, shared by /api/v1, /trpc and /mcp. Resolves the
 * bearer (an API key, or an OAuth app's access token: docs/apps.md), counts the request and
 * sets the RateLimit-* headers; throws 401 or 429.
 */
export async function passGate(
  ctx: ParameterizedContext<AppState>,
  { keys, limits, tokens }: GateDeps,
  source: 'rest' | 'trpc' | 'mcp' = 'rest',
): Promise<Actor> {
  const viaToken = tokens ? await tokens(ctx, source) : null;
  if (viaToken) return viaToken;
  const key = await keys.authenticate(bearerToken(requestHeader(ctx.req, 'authorization')));
  const actor: Actor = {
    workspaceId: key.workspaceId,
    userId: key.userId,
    userName: key.userName,
    role: key.role,
    apiKeyId: key.keyId,
    scopes: key.scopes,
    folderIds: key.folderIds,
    // Changes made with the key are recorded as the key's (docs/api.md, "History and provenance").
    provenance: {
      actor: { type: 'apiKey', id: key.keyId, name: key.keyName },
      source,
      requestId: ctx.state.requestId,
    },
  };
  ctx.state.actor = actor;
  await countWorkspaceRequest(ctx, limits, key.workspaceId, key.rateLimitPerMinute);
  return actor;
}

/**
 * Counts a request against its workspace's limit and sets the RateLimit-* headers; throws 429
 * with Retry-After beyond it. Every credential a workspace's integrations use shares it.
 */
export async function countWorkspaceRequest(
  ctx: ParameterizedContext<AppState>,
  limits: RateLimitBatcher,
  workspaceId: string,
  perMinute: number,
): Promise<void> {
  const limit = await limits.consume(workspaceRateLimitSubject(workspaceId), perMinute);
  const res = ctx.res;
  res.setHeader('RateLimit-Limit', String(limit.limit));
  res.setHeader('RateLimit-Remaining', String(limit.remaining));
  res.setHeader('RateLimit-Reset', String(limit.resetSeconds));
  if (!limit.allowed) {
    throw new DomainError(
      'RATE_LIMITED',
      `Rate limit of ${limit.limit} requests a minute reached; retry in ${limit.retryAfterSeconds} s`,
      { retryAfterSeconds: limit.retryAfterSeconds },
    );
  }
}

/** Requests a signed-in user may make a minute (the web app), counted per user. */
const SESSION_REQUESTS_PER_MINUTE = 600;
export const SESSION_COOKIE = 'crm_session';
export const CSRF_HEADER = 'X-CSRF-Token';
/**
 * Sent by the web app's CSV import on the writes it makes (`import`): they are recorded as
 * an import by the signed-in user. Read only on session requests.
 */
const CHANGE_SOURCE_HEADER = 'X-Change-Source';

/**
 * The /trpc gate: a bearer key as on /api/v1, or else the session cookie of the web app.
 * A cookie-authenticated request must echo the session's CSRF token in X-CSRF-Token, which
 * a page of another site can neither read nor set without a CORS preflight this server
 * never grants. Session requests count against the user's own limit, not the workspace's
 * REST limit, so a busy browser tab cannot starve the integrations.
 */
export function passTrpcGate(ctx: ParameterizedContext<AppState>, deps: GateDeps): Promise<Actor> {
  return passKeyOrSession(ctx, deps, 'trpc', true);
}

/**
 * The gate of the REST file routes (docs/jobs.md, "Files"): a bearer key, or else the web
 * app's session, which uploads and downloads a job's files there rather than through /trpc.
 * An upload must carry the CSRF token as on /trpc; a download (GET) needs the cookie alone,
 * so that a plain link downloads the file: the cookie is `SameSite=Lax`, so a page of another
 * site cannot send it with a request it could read the answer of.
 */
export function passFileGate(ctx: ParameterizedContext<AppState>, deps: GateDeps): Promise<Actor> {
  return passKeyOrSession(ctx, deps, 'rest', ctx.method !== 'GET' && ctx.method !== 'HEAD');
}

async function passKeyOrSession(
  ctx: ParameterizedContext<AppState>,
  deps: GateDeps,
  source: 'rest' | 'trpc',
  csrf: boolean,
): Promise<Actor> {
  if (ctx.get('Authorization') || !ctx.cookies.get(SESSION_COOKIE)) return passGate(ctx, deps, source);
  const session = await authenticateSession(deps.db, ctx.cookies.get(SESSION_COOKIE));
  if (!session) throw new DomainError('UNAUTHORIZED', 'Your session has ended; sign in again');
  if (csrf && !sameToken(ctx.get(CSRF_HEADER), session.csrfToken)) {
    throw new DomainError('FORBIDDEN', `Missing or wrong ${CSRF_HEADER} header`);
  }
  // A signed-in user in the web app; its CSV import marks its writes as an import.
  const importing = ctx.get(CHANGE_SOURCE_HEADER) === 'import';
  const actor: Actor = {
    ...session.actor,
    provenance: {
      actor: { type: importing ? 'import' : 'user', id: session.actor.userId, name: session.actor.userName },
      source: importing ? 'import' : 'web',
      requestId: ctx.state.requestId,
    },
  };
  ctx.state.actor = actor;
  const limit = await deps.limits.consume(
    `session-user:${session.actor.userId}`,
    SESSION_REQUESTS_PER_MINUTE,
  );
  if (!limit.allowed) {
    throw new DomainError('RATE_LIMITED', `Too many requests; retry in ${limit.retryAfterSeconds} s`, {
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  }
  return actor;
}

export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bearerToken(header: string): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
