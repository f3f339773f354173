import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, lt, sql } from 'drizzle-orm';
import { rightsOf } from '../api-keys/scopes.ts';
import type { Actor } from '../shared/actor.ts';
import { hashToken, SESSION_IDLE_MS } from './create-session.ts';

export interface SessionInfo {
  actor: Actor;
  csrfToken: string;
  email: string;
  workspaceName: string;
  /** For a sandbox (docs/operations.md, "Sandboxes"): the workspace it was made from. */
  sandboxOf: string | null;
}

/**
 * Resolves a session cookie to its actor, or null when the token is unknown, expired, idle
 * too long, or its user left the workspace. A signed-in user holds the rights of their role
 * (api-keys/scopes.ts).
 */
export async function authenticateSession(
  db: Database,
  token: string | undefined,
): Promise<SessionInfo | null> {
  if (!token) return null;
  const s = schema.sessions;
  const m = schema.memberships;
  const [row] = await db
    .select({
      tokenHash: s.tokenHash,
      csrfToken: s.csrfToken,
      expiresAt: s.expiresAt,
      lastSeenAt: s.lastSeenAt,
      userId: s.userId,
      workspaceId: s.workspaceId,
      userName: schema.users.name,
      email: schema.users.email,
      role: m.role,
      workspaceName: schema.workspaces.name,
      sandboxOf: schema.workspaces.sandboxOf,
    })
    .from(s)
    .innerJoin(schema.users, eq(schema.users.id, s.userId))
    .innerJoin(schema.workspaces, eq(schema.workspaces.id, s.workspaceId))
    .innerJoin(m, and(eq(m.workspaceId, s.workspaceId), eq(m.userId, s.userId)))
    .where(eq(s.tokenHash, hashToken(token)));
  if (!row) return null;
  const now = Date.now();
  if (row.expiresAt.getTime() <= now || now - row.lastSeenAt.getTime() > SESSION_IDLE_MS) return null;
  if (now - row.lastSeenAt.getTime() >= 60_000) {
    await db
      .update(s)
      .set({ lastSeenAt: sql`now()` })
      .where(and(eq(s.tokenHash, row.tokenHash), lt(s.lastSeenAt, sql`now() - interval '1 minute'`)));
  }
  return {
    actor: {
      workspaceId: row.workspaceId,
      userId: row.userId,
      userName: row.userName,
      role: row.role,
      apiKeyId: null,
      scopes: rightsOf(row.role),
      folderIds: null,
    },
    csrfToken: row.csrfToken,
    email: row.email,
    workspaceName: row.workspaceName,
    sandboxOf: row.sandboxOf,
  };
}
