import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { DomainError, notFound } from '../shared/errors.ts';

/**
 * The member's row, locked, and the workspace's owners: an owner is changed only by an owner,
 * and the last owner is never demoted nor removed (a workspace keeps someone who can manage it).
 */
export async function lockMember(tx: Executor, actor: Actor, userId: string) {
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

export function assertMayChange(actor: Actor, current: string, next: string | null, owners: number) {
  if ((current === 'OWNER' || next === 'OWNER') && actor.role !== 'OWNER') {
    throw new DomainError('FORBIDDEN', 'Only an owner can make or unmake an owner');
  }
  if (current === 'OWNER' && next !== 'OWNER' && owners <= 1) {
    throw new DomainError('CONFLICT', 'The workspace needs an owner: make another member owner first');
  }
}
