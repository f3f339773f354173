import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, asc, eq } from 'drizzle-orm';
import { DomainError } from '../shared/errors.ts';

/** A session ends 30 days after sign-in, or after 7 days without a request. */
export const SESSION_MAX_AGE_MS = 30 * 86_400_000;
export const SESSION_IDLE_MS = 7 * 86_400_000;

export interface NewSession {
  /** Goes into the HTTP-only cookie; never stored. */
  token: string;
  csrfToken: string;
  expiresAt: Date;
  /** The workspace the session opens. */
  workspaceId: string;
}

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

/** Starts a session for a member of a workspace (the oldest membership unless one is named). */
export async function createSession(db: Executor, userId: string, workspaceId?: string): Promise<NewSession> {
  const m = schema.memberships;
  const memberships = await db
    .select({ workspaceId: m.workspaceId })
    .from(m)
    .where(and(eq(m.userId, userId), workspaceId ? eq(m.workspaceId, workspaceId) : undefined))
    .orderBy(asc(m.createdAt))
    .limit(1);
  const membership = memberships[0];
  if (!membership) throw new DomainError('UNAUTHORIZED', 'This user is not a member of any workspace');
  const token = randomToken();
  const csrfToken = randomToken();
  const now = Date.now();
  const expiresAt = new Date(now + SESSION_MAX_AGE_MS);
  await db.insert(schema.sessions).values({
    tokenHash: hashToken(token),
    userId,
    workspaceId: membership.workspaceId,
    csrfToken,
    expiresAt,
    lastSeenAt: new Date(now),
  });
  return { token, csrfToken, expiresAt, workspaceId: membership.workspaceId };
}
