import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { changeAuth } from '../api-keys/auth-changes.ts';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { assertMayChange, lockMember } from './lock-member.ts';

export const removeMemberInput = z.strictObject({ userId: z.string().max(200) });

/**
 * Removes a member from the workspace: their sessions in it end, and their keys stop working
 * at once (a key's maker must be a member). Audited as `member.removed`.
 */
export async function removeMember(
  db: Database,
  actor: Actor,
  input: z.output<typeof removeMemberInput>,
): Promise<{ id: string; removed: true }> {
  return changeAuth(db, { userId: input.userId }, async (tx) => {
    const { row, owners } = await lockMember(tx, actor, input.userId);
    assertMayChange(actor, row.role, null, owners);
    await tx
      .delete(schema.memberships)
      .where(
        and(
          eq(schema.memberships.workspaceId, actor.workspaceId),
          eq(schema.memberships.userId, input.userId),
        ),
      );
    await tx
      .delete(schema.sessions)
      .where(
        and(eq(schema.sessions.workspaceId, actor.workspaceId), eq(schema.sessions.userId, input.userId)),
      );
    // The apps they allowed over OAuth lose their grants and tokens too.
    await tx
      .delete(schema.oauthModels)
      .where(
        and(
          eq(schema.oauthModels.workspaceId, actor.workspaceId),
          eq(schema.oauthModels.userId, input.userId),
        ),
      );
    await audit(tx, actor, {
      action: 'member.removed',
      target: { type: 'user', id: input.userId },
      details: { name: row.name, email: row.email, role: row.role },
    });
    return { id: input.userId, removed: true as const };
  });
}
