import { randomBytes } from 'node:crypto';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { hashToken } from './create-session.ts';
import type { createInvitationInput, InvitationOutput } from './schemas.ts';
import { serializeInvitation } from './serialize.ts';

/** An invitation link is good for 7 days and for one use. */
const INVITATION_TTL_MS = 7 * 86_400_000;

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
    return { invitation: serializeInvitation(row), token };
  });
}
