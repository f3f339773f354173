import { randomBytes } from 'node:crypto';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { memberRoles } from '@crm/db/schema';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';
import { instantOutput } from '../shared/schemas.ts';
import { addMember } from '../workspaces/create-workspace.ts';
import { hashPassword, passwordInput } from './passwords.ts';
import { createSession, hashToken, type NewSession } from './sessions.ts';

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
  name: z.string().trim().min(1).max(200),
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
  const [row] = await db
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
  return { invitation: serialize(row!), token };
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
  const [row] = await db
    .update(i)
    .set({ revokedAt: sql`coalesce(${i.revokedAt}, now())` })
    .where(and(eq(i.workspaceId, actor.workspaceId), eq(i.id, id), isNull(i.acceptedAt)))
    .returning();
  if (!row) throw notFound('Invitation', id);
  return serialize(row);
}

/**
 * Accepts an invitation: the user of that email (created if new) gets the password and the
 * membership, and a session in that workspace starts. The invitation is used up in the same
 * transaction, so a link works once even when clicked twice at the same moment.
 */
export async function acceptInvitation(
  db: Database,
  input: z.output<typeof acceptInvitationInput>,
): Promise<NewSession> {
  const passwordHash = await hashPassword(input.password);
  const { userId, workspaceId } = await db.transaction(async (tx) => {
    const i = schema.invitations;
    const [invitation] = await tx
      .update(i)
      .set({ acceptedAt: sql`now()` })
      .where(
        and(
          eq(i.tokenHash, hashToken(input.token)),
          isNull(i.acceptedAt),
          isNull(i.revokedAt),
          sql`${i.expiresAt} > now()`,
        ),
      )
      .returning();
    if (!invitation) {
      throw invalid('token', 'This invitation link is unknown, used, revoked or expired');
    }
    const [user] = await tx
      .insert(schema.users)
      .values({ id: newId('user'), email: invitation.email, name: input.name, passwordHash })
      .onConflictDoUpdate({
        target: schema.users.email,
        set: { name: input.name, passwordHash, updatedAt: new Date() },
      })
      .returning({ id: schema.users.id });
    await addMember(tx, invitation.workspaceId, user!.id, invitation.role);
    return { userId: user!.id, workspaceId: invitation.workspaceId };
  });
  return createSession(db, userId, workspaceId);
}

/** Sets the password of a user by email (the CLI's way in for the bootstrap owner). */
export async function setPassword(db: Database, email: string, password: string): Promise<string> {
  const parsed = passwordInput.safeParse(password);
  if (!parsed.success) throw invalid('password', parsed.error.issues[0]?.message ?? 'invalid');
  const passwordHash = await hashPassword(password);
  const [row] = await db
    .update(schema.users)
    .set({ passwordHash, updatedAt: new Date() })
    .where(eq(schema.users.email, email.trim().toLowerCase()))
    .returning({ id: schema.users.id });
  if (!row) throw notFound('User with email', email);
  return row.id;
}
