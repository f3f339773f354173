import type { Scope } from '@crm/constants';
import { type Database, schema } from '@crm/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { isScope, rightsOf } from '../api-keys/scopes.ts';
import { DomainError } from '../shared/errors.ts';
import { storedId } from './store.ts';

/** A verified OAuth access token: whose it is, which app holds it, and what it may do. */
export interface OAuthAccess {
  workspaceId: string;
  userId: string;
  userName: string;
  role: 'OWNER' | 'ADMIN' | 'MEMBER';
  /** The scopes granted, within the user's rights now (a demoted user's apps lose the rest). */
  scopes: ReadonlySet<Scope>;
  clientId: string;
  /** The name the app registered with, as changes it makes are recorded. */
  clientName: string;
  grantId: string;
  /** The resource the token was issued for (its audience). */
  audience: string | null;
  /**
   * `user`: a user allowed the app (authorization code); `app`: an app of the workspace got it
   * for itself (client credentials), with the rights of the admin who registered it.
   */
  grantedBy: 'user' | 'app';
  rateLimitPerMinute: number;
}

/**
 * The 401 of a missing or unusable token, pointing the client at the protected-resource
 * metadata (RFC 9728) that says where to get one (docs/mcp.md, "OAuth").
 */
export function unauthorizedToken(message: string, resourceMetadata: string | null): DomainError {
  return new DomainError('UNAUTHORIZED', message, {
    challenge: resourceMetadata ? { scheme: 'Bearer', resourceMetadata } : { scheme: 'Bearer' },
  });
}

/**
 * Looks an access token up (one a user allowed an app, or one an app of the workspace got for
 * itself), in one statement with its user's membership, the workspace's limit and the app's
 * name; null when it is unknown, expired, revoked (its grant or its app removed), or its user
 * has left the workspace. Looked up on every request, so revoking an app in the
 * settings takes effect on the next one.
 */
export async function findOAuthAccess(db: Database, token: string): Promise<OAuthAccess | null> {
  const t = schema.oauthModels;
  const m = schema.memberships;
  const client = sql`(select c.payload->>'client_name' from oauth_models c
     where c.model = 'Client' and c.id = encode(sha256(convert_to(oauth_models.payload->>'clientId', 'UTF8')), 'hex'))`;
  const [row] = await db
    .select({
      model: t.model,
      payload: t.payload,
      workspaceId: m.workspaceId,
      userId: m.userId,
      role: m.role,
      userName: schema.users.name,
      rateLimitPerMinute: schema.workspaces.rateLimitPerMinute,
      clientName: sql<string | null>`${client}`,
    })
    .from(t)
    .innerJoin(m, and(eq(m.workspaceId, t.workspaceId), eq(m.userId, t.userId)))
    .innerJoin(schema.users, eq(schema.users.id, m.userId))
    .innerJoin(schema.workspaces, eq(schema.workspaces.id, m.workspaceId))
    .where(
      and(
        inArray(t.model, ['AccessToken', 'ClientCredentials']),
        eq(t.id, storedId(token)),
        sql`${t.expiresAt} > now()`,
        sql`${t.consumedAt} is null`,
      ),
    );
  if (!row) return null;
  const payload = row.payload as { clientId?: string; scope?: string; grantId?: string; aud?: string };
  const rights = rightsOf(row.role);
  const scopes = new Set<Scope>();
  for (const word of (payload.scope ?? '').split(' '))
    if (isScope(word) && rights.has(word)) scopes.add(word);
  return {
    workspaceId: row.workspaceId,
    userId: row.userId,
    userName: row.userName,
    role: row.role,
    scopes,
    clientId: payload.clientId ?? '',
    clientName: row.clientName ?? payload.clientId ?? 'an app',
    grantId: payload.grantId ?? '',
    audience: typeof payload.aud === 'string' ? payload.aud : null,
    grantedBy: row.model === 'ClientCredentials' ? 'app' : 'user',
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}
