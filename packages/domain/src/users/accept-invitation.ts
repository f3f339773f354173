import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { appendAudit } from '../audit/append-audit.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { addMember } from '../workspaces/create-workspace.ts';
import { checkPassword } from './check-password.ts';
import { createSession, hashToken, type NewSession } from './create-session.ts';
import { endUserSessions } from './end-user-sessions.ts';
import { hashPassword } from './passwords.ts';
import type { acceptInvitationInput } from './schemas.ts';
import type { SignInSource } from './sign-in.ts';
import { throttledSignIn } from './sign-in-throttle.ts';

/**
 * Accepts an invitation and starts a session in that workspace. A new address gets a user with
 * the name and password given. An address that already has an account (a password, or a
 * membership of another workspace) keeps its name and password: the password given must be
 * that account's own, checked under the sign-in throttles, so an invitation cannot be used to
 * take over an account; a wrong one is UNAUTHORIZED and leaves the link unused. The invitation
 * is used up in the same transaction as the membership, so a link works once even when
 * clicked twice at the same moment.
 */
export async function acceptInvitation(
  db: Database,
  input: z.output<typeof acceptInvitationInput>,
  from: SignInSource,
): Promise<NewSession> {
  const i = schema.invitations;
  const usable = and(
    eq(i.tokenHash, hashToken(input.token)),
    isNull(i.acceptedAt),
    isNull(i.revokedAt),
    sql`${i.expiresAt} > now()`,
  );
  const unusable = () => invalid('token', 'This invitation link is unknown, used, revoked or expired');
  const [found] = await db.select({ email: i.email }).from(i).where(usable);
  if (!found) throw unusable();
  const existing = await findAccount(db, found.email);
  let userId = existing?.id;
  if (existing?.claimed) {
    userId = await throttledSignIn(db, { address: from.address, account: found.email }, from.limits, () =>
      checkPassword(db, found.email, input.password).catch(() => {
        throw new DomainError(
          'UNAUTHORIZED',
          "This email already has an account: enter that account's password to join",
        );
      }),
    );
  }
  const passwordHash = existing?.claimed ? null : await hashPassword(input.password);
  const joinedAs = await db.transaction(async (tx) => {
    const [invitation] = await tx.update(i).set({ acceptedAt: sql`now()` }).where(usable).returning();
    if (!invitation) throw unusable();
    if (passwordHash) {
      const u = schema.users;
      const [user] = await tx
        .insert(u)
        .values({ id: newId('user'), email: invitation.email, name: input.name, passwordHash })
        .onConflictDoUpdate({
          target: u.email,
          set: { name: input.name, passwordHash, updatedAt: new Date() },
          // Only an account nobody can sign in to yet is claimed this way.
          setWhere: sql`${u.passwordHash} is null and not exists (select 1 from ${schema.memberships} where ${schema.memberships.userId} = ${u.id})`,
        })
        .returning({ id: u.id });
      if (!user) throw new DomainError('CONFLICT', 'This account changed meanwhile; open the link again');
      userId = user.id;
      await endUserSessions(tx, userId);
    }
    // An account that existed was found above; otherwise the insert just made one.
    const memberId = userId ?? missing('the account of who accepts the invitation');
    await addMember(tx, invitation.workspaceId, memberId, invitation.role);
    const [joined] = await tx
      .select({ name: schema.users.name })
      .from(schema.users)
      .where(eq(schema.users.id, memberId));
    await appendAudit(
      tx,
      invitation.workspaceId,
      {
        actor: { type: 'user', id: memberId, name: joined?.name ?? invitation.email },
        source: 'web',
        requestId: from.requestId ?? null,
      },
      {
        action: 'member.joined',
        target: { type: 'user', id: memberId },
        details: { email: invitation.email, role: invitation.role, invitationId: invitation.id },
      },
    );
    return { workspaceId: invitation.workspaceId, userId: memberId };
  });
  return createSession(db, joinedAs.userId, joinedAs.workspaceId);
}

/** A user of that email, and whether someone already holds it (a password or a membership). */
async function findAccount(db: Database, email: string) {
  const u = schema.users;
  const [row] = await db
    .select({
      id: u.id,
      claimed: sql<boolean>`${u.passwordHash} is not null or exists (select 1 from ${schema.memberships} where ${schema.memberships.userId} = ${u.id})`,
    })
    .from(u)
    .where(eq(u.email, email));
  return row;
}
