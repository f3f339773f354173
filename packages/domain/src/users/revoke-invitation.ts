import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import type { InvitationOutput } from './schemas.ts';
import { serializeInvitation } from './serialize.ts';

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
    return serializeInvitation(row);
  });
}
