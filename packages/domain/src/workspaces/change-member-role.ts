import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { memberRoles } from '@crm/db/schema';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { changeAuth } from '../api-keys/auth-changes.ts';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import type { MemberOutput } from './find-members.ts';
import { assertMayChange, lockMember } from './lock-member.ts';

export const changeMemberRoleInput = z.strictObject({
  userId: z.string().max(200),
  role: z.enum(memberRoles),
});

/**
 * Gives a member another role (settings area). What the member's keys may do follows at once
 * in every process: their rights are their maker's role (docs/api.md, "Scopes"), and the
 * change reaches the key caches through `changeAuth`. Audited as `member.role_changed`.
 */
export async function changeMemberRole(
  db: Database,
  actor: Actor,
  input: z.output<typeof changeMemberRoleInput>,
): Promise<MemberOutput> {
  return changeAuth(db, { userId: input.userId }, async (tx) => {
    const { row, owners } = await lockMember(tx, actor, input.userId);
    assertMayChange(actor, row.role, input.role, owners);
    if (row.role !== input.role) {
      await tx
        .update(schema.memberships)
        .set({ role: input.role })
        .where(
          and(
            eq(schema.memberships.workspaceId, actor.workspaceId),
            eq(schema.memberships.userId, input.userId),
          ),
        );
      await audit(tx, actor, {
        action: 'member.role_changed',
        target: { type: 'user', id: input.userId },
        details: { from: row.role, to: input.role },
      });
    }
    return {
      id: input.userId,
      name: row.name,
      email: row.email,
      role: input.role,
      createdAt: row.createdAt.toISOString(),
    };
  });
}
