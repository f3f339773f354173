import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { memberRoles } from '@crm/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { changeAuth } from '../api-keys/auth-changes.ts';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import type { MemberOutput } from './find-members.ts';

export const changeMemberRoleInput = z.strictObject({
  userId: z.string().max(200),
  role: z.enum(memberRoles),
});

export const removeMemberInput = z.strictObject({ userId: z.string().max(200) });

/**
 * The member's row, locked, and the workspace's owners: an owner is changed only by an owner,
 * and the last owner is never demoted nor removed (a workspace keeps someone who can manage it).
 */
async function lockMember(tx: Executor, actor: Actor, userId: string) {
  const m = schema.memberships;
  const [row] = await tx
    .select({ role: m.role, name: schema.users.name, email: schema.users.email, createdAt: m.createdAt })
    .from(m)
    .innerJoin(schema.users, eq(schema.users.id, m.userId))
    .where(and(eq(m.workspaceId, actor.workspaceId), eq(m.userId, userId)))
    .for('update', { of: m });
  if (!row) throw notFound('Member', userId);
  const owners = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from memberships where workspace_id = ${actor.workspaceId} and role = 'OWNER'`,
  );
  return { row, owners: owners.rows[0]?.n ?? 0 };
}

function assertMayChange(actor: Actor, current: string, next: string | null, owners: number) {
  if ((current === 'OWNER' || next === 'OWNER') && actor.role !== 'OWNER') {
    throw new DomainError('FORBIDDEN', 'Only an owner can make or unmake an owner');
  }
  if (current === 'OWNER' && next !== 'OWNER' && owners <= 1) {
    throw new DomainError('CONFLICT', 'The workspace needs an owner: make another member owner first');
  }
}

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
