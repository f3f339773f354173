import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, inArray } from 'drizzle-orm';
import { invalid } from './errors.ts';
import { isId } from './ids.ts';

/** A user reference in a body (owner, assignee) must be a member of the workspace: 400 otherwise. */
export async function assertMember(
  tx: Executor,
  workspaceId: string,
  userId: string,
  path: string,
): Promise<void> {
  if (isId('user', userId)) {
    const m = schema.memberships;
    const rows = await tx
      .select({ userId: m.userId })
      .from(m)
      .where(and(eq(m.workspaceId, workspaceId), eq(m.userId, userId)));
    if (rows.length > 0) return;
  }
  throw invalid(path, `${userId} is not a member of this workspace`);
}

/** Every user of `userIds` is a member of the workspace: 400 naming the first that is not, at `path.<i>`. */
export async function assertMembers(
  tx: Executor,
  workspaceId: string,
  userIds: readonly string[],
  path: string,
): Promise<void> {
  if (userIds.length === 0) return;
  const m = schema.memberships;
  const rows = await tx
    .select({ userId: m.userId })
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), inArray(m.userId, [...userIds])));
  const found = new Set(rows.map((row) => row.userId));
  userIds.forEach((id, i) => {
    if (!found.has(id)) throw invalid(`${path}.${i}`, `${id} is not a member of this workspace`);
  });
}
