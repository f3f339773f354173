import { randomBytes } from 'node:crypto';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { memberRoles } from '@crm/db/schema';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { appendAudit, audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { instantOutput, nonBlankText } from '../shared/schemas.ts';
import { addMember } from '../workspaces/create-workspace.ts';
import { hashPassword, passwordInput } from './passwords.ts';
import {
  checkPassword,
  createSession,
  endUserSessions,
  hashToken,
  type NewSession,
  type SignInSource,
} from './sessions.ts';
import { throttledSignIn } from './sign-in-throttle.ts';

/** An invitation link is good for 7 days and for one use. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

export const invitationOutput = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(memberRoles),
  invitedBy: z.string(),
  status: z.enum(['PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED']),
  expiresAt: instantOutput(),
  acceptedAt: instantOutput().nullable(),
  createdAt: instantOutput(),
});
export type InvitationOutput = z.infer<typeof invitationOutput>;

export const createInvitationInput = z.strictObject({
  email: z.email().max(320),
  role: z.enum(memberRoles).default('MEMBER'),
});

export const acceptInvitationInput = z.strictObject({
  token: z.string().min(1).max(200),
  name: nonBlankText(200)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters'),
  password: passwordInput,
});

type InvitationRow = typeof schema.invitations.$inferSelect;

function serialize(row: InvitationRow): InvitationOutput {
  const status = row.acceptedAt
    ? 'ACCEPTED'
    : row.revokedAt
      ? 'REVOKED'
      : row.expiresAt.getTime() <= Date.now()
        ? 'EXPIRED'
        : 'PENDING';
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    status,
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Invites an address with a role. Only an OWNER may invite another OWNER. The token is
 * returned once, for the link the inviter passes on; only its hash is stored.
 */
export async function createInvitation(
  db: Database,
  actor: Actor,
  input: z.output<typeof createInvitationInput>,
): Promise<{ invitation: InvitationOutput; token: string }> {
  if (input.role === 'OWNER' && actor.role !== 'OWNER') {
    throw new DomainError('FORBIDDEN', 'Only an owner can invite another owner');
  }
  const email = input.email.toLowerCase();
  const existing = await db
    .select({ userId: schema.memberships.userId })
    .from(schema.memberships)
    .innerJoin(schema.users, eq(schema.users.id, schema.memberships.userId))
    .where(and(eq(schema.memberships.workspaceId, actor.workspaceId), eq(schema.users.email, email)));
  if (existing.length > 0) throw invalid('email', `${email} is already a member of this workspace`);
  const token = `inv_${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.invitations)
      .values({
        workspaceId: actor.workspaceId,
        id: newId('invitation'),
        email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: actor.userId,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      })
      .returning();
    if (!row) missing('the row insert … returning wrote (row)');
    await audit(tx, actor, {
      action: 'invitation.created',
      target: { type: 'invitation', id: row.id },
      details: { email, role: input.role },
    });
    return { invitation: serialize(row), token };
  });
}

/** The workspace's invitations, newest first (a short list: no paging). */
export async function findInvitations(db: Database, actor: Actor): Promise<InvitationOutput[]> {
  const i = schema.invitations;
  const rows = await db
    .select()
    .from(i)
    .where(eq(i.workspaceId, actor.workspaceId))
    .orderBy(desc(i.createdAt), desc(i.id))
    .limit(200);
  return rows.map(serialize);
}

export async function revokeInvitation(db: Database, actor: Actor, id: string): Promise<InvitationOutput> {
  if (!isId('invitation', id)) throw notFound('Invitation', id);
  const i = schema.invitations;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(i)
      .set({ revokedAt: sql`coalesce(${i.revokedAt}, now())` })
      .where(and(eq(i.workspaceId, actor.workspaceId), eq(i.id, id), isNull(i.acceptedAt)))
      .returning();
    if (!row) throw notFound('Invitation', id);
    await audit(tx, actor, {
      action: 'invitation.revoked',
      target: { type: 'invitation', id },
      details: { email: row.email },
    });
    return serialize(row);
  });
}

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

/**
 * Sets the password of a user by email (the CLI's way in for the bootstrap owner, and the
 * reset of a forgotten password): every session of the user ends, in the same transaction.
 */
export async function setPassword(
  db: Database,
  email: string,
  password: string,
): Promise<{ userId: string; sessionsEnded: number }> {
  const parsed = passwordInput.safeParse(password);
  if (!parsed.success) throw invalid('password', parsed.error.issues[0]?.message ?? 'invalid');
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(schema.users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(schema.users.email, email.trim().toLowerCase()))
      .returning({ id: schema.users.id });
    if (!row) throw notFound('User with email', email);
    return { userId: row.id, sessionsEnded: await endUserSessions(tx, row.id) };
  });
}
