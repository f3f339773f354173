import { createHash, randomBytes } from 'node:crypto';
import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import { rightsOf } from '../api-keys/scopes.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { hashPassword, passwordInput, spendVerificationTime, verifyPassword } from './passwords.ts';
import { auditFailedSignIn, auditSignIn } from './sign-in-audit.ts';
import { type SignInLimits, throttledSignIn } from './sign-in-throttle.ts';

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

export interface SessionInfo {
  actor: Actor;
  csrfToken: string;
  email: string;
  workspaceName: string;
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

/** Where a sign-in comes from, for the throttles (sign-in-throttle.ts) and the audit log. */
export interface SignInSource {
  /** The client address (the socket's, or the proxy's X-Forwarded-For with TRUST_PROXY). */
  address: string;
  limits?: SignInLimits;
  /** The request's id, as the audit log keeps it. */
  requestId?: string;
}

/**
 * Checks an email and password and starts a session. Every failure is the same
 * UNAUTHORIZED, whether the address is unknown, has no password or the password is wrong;
 * failures count against the sign-in throttles of the client address and the account.
 */
export async function signIn(
  db: Database,
  input: { email: string; password: string },
  from: SignInSource,
): Promise<NewSession> {
  const email = input.email.trim().toLowerCase();
  let userId: string;
  try {
    userId = await throttledSignIn(db, { address: from.address, account: email }, from.limits, () =>
      checkPassword(db, email, input.password),
    );
  } catch (error) {
    // Failed sign-ins are in the audit log of the user's workspaces (docs/api.md, "Audit log").
    if (error instanceof DomainError && (error.code === 'UNAUTHORIZED' || error.code === 'RATE_LIMITED')) {
      await auditFailedSignIn(
        db,
        email,
        from,
        error.code === 'UNAUTHORIZED' ? 'wrong-credentials' : 'throttled',
      );
    }
    throw error;
  }
  return db.transaction(async (tx) => {
    const session = await createSession(tx, userId);
    await auditSignIn(tx, userId, session.workspaceId, from);
    return session;
  });
}

/** The id of the user with this email and password; UNAUTHORIZED otherwise, in about the same time. */
export async function checkPassword(db: Database, email: string, password: string): Promise<string> {
  const [user] = await db
    .select({ id: schema.users.id, passwordHash: schema.users.passwordHash })
    .from(schema.users)
    .where(eq(schema.users.email, email));
  if (!user?.passwordHash) {
    await spendVerificationTime(password);
    throw wrongCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw wrongCredentials();
  return user.id;
}

const wrongCredentials = () => new DomainError('UNAUTHORIZED', 'Wrong email or password');

/**
 * Ends the sessions of a user, all of them or all but the one whose token is given (the
 * session that changed the password stays signed in). Returns how many ended.
 */
export async function endUserSessions(db: Executor, userId: string, keepToken?: string): Promise<number> {
  const s = schema.sessions;
  const ended = await db
    .delete(s)
    .where(and(eq(s.userId, userId), keepToken ? ne(s.tokenHash, hashToken(keepToken)) : undefined))
    .returning({ tokenHash: s.tokenHash });
  return ended.length;
}

/**
 * A signed-in user changes their password: the current one must be given (a wrong one counts
 * as a failed sign-in), and every other session of the user ends; the one making the change
 * stays.
 */
export async function changePassword(
  db: Database,
  input: { token: string; currentPassword: string; newPassword: string },
  from: SignInSource,
): Promise<{ sessionsEnded: number }> {
  const session = await authenticateSession(db, input.token);
  if (!session) throw new DomainError('UNAUTHORIZED', 'Your session has ended; sign in again');
  const parsed = passwordInput.safeParse(input.newPassword);
  if (!parsed.success) throw invalid('newPassword', parsed.error.issues[0]?.message ?? 'invalid');
  await throttledSignIn(db, { address: from.address, account: session.email }, from.limits, async () => {
    const userId = await checkPassword(db, session.email, input.currentPassword);
    if (userId !== session.actor.userId) throw wrongCredentials();
  });
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await tx
      .update(schema.users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(schema.users.id, session.actor.userId));
    return { sessionsEnded: await endUserSessions(tx, session.actor.userId, input.token) };
  });
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
  };
}

/** Ends a session; an unknown token is already signed out. */
export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (!token) return;
  await db.delete(schema.sessions).where(eq(schema.sessions.tokenHash, hashToken(token)));
}

/** Removes sessions past their end (run by the worker's daily clean-up). */
export async function pruneSessions(db: Database): Promise<number> {
  const s = schema.sessions;
  const idle = new Date(Date.now() - SESSION_IDLE_MS);
  const deleted = await db
    .delete(s)
    .where(sql`${s.expiresAt} <= now() or ${s.lastSeenAt} < ${idle}`)
    .returning({ tokenHash: s.tokenHash });
  return deleted.length;
}
