import type { ApiServices } from '@crm/api';
import type { Database } from '@crm/db';
import {
  type Actor,
  authenticateApiKey,
  consumeRateLimit,
  DomainError,
  workspaceRateLimitSubject,
} from '@crm/domain';
import type { ParameterizedContext } from 'koa';
import type { AppState } from './state.ts';

/**
 * Authentication and the workspace rate limit, shared by /api/v1 and /trpc. Resolves the
 * bearer key, counts the request and sets the RateLimit-* headers; throws 401 or 429.
 */
export interface GateDeps {
  db: Database;
  services: ApiServices;
  /** Where rate-limit counters are written (a pool that commits asynchronously); default `db`. */
  countersDb?: Database;
}

export async function passGate(
  ctx: ParameterizedContext<AppState>,
  { db, countersDb }: GateDeps,
): Promise<Actor> {
  const key = await authenticateApiKey(db, bearerToken(ctx.get('Authorization')));
  const actor: Actor = {
    workspaceId: key.workspaceId,
    userId: key.userId,
    userName: key.userName,
    role: key.role,
    apiKeyId: key.keyId,
    scopes: key.scopes,
  };
  ctx.state.actor = actor;
  const limit = await consumeRateLimit(
    countersDb ?? db,
    workspaceRateLimitSubject(key.workspaceId),
    key.rateLimitPerMinute,
  );
  ctx.set('RateLimit-Limit', String(limit.limit));
  ctx.set('RateLimit-Remaining', String(limit.remaining));
  ctx.set('RateLimit-Reset', String(limit.resetSeconds));
  if (!limit.allowed) {
    throw new DomainError(
      'RATE_LIMITED',
      `Rate limit of ${limit.limit} requests a minute reached; retry in ${limit.retryAfterSeconds} s`,
      { headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
    );
  }
  return actor;
}

function bearerToken(header: string): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
