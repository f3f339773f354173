import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, inArray } from 'drizzle-orm';
import { invalid } from '../shared/errors.ts';

/** Every member named in `notifyOnFailure` belongs to the workspace: 400 naming the first that does not. */
export async function assertMembers(
  tx: Executor,
  workspaceId: string,
  userIds: readonly string[],
): Promise<void> {
  if (userIds.length === 0) return;
  const m = schema.memberships;
  const rows = await tx
    .select({ userId: m.userId })
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), inArray(m.userId, [...userIds])));
  const found = new Set(rows.map((row) => row.userId));
  userIds.forEach((id, i) => {
    if (!found.has(id)) throw invalid(`notifyOnFailure.${i}`, `${id} is not a member of this workspace`);
  });
}

/** The schedule a trigger stores: its cron and zone for SCHEDULE (UTC unless given), null otherwise. */
export function scheduleOf(trigger: {
  type: string;
  cron?: string | undefined;
  timezone?: string | undefined;
}): { cron: string; timezone: string } | null {
  return trigger.type === 'SCHEDULE' && trigger.cron !== undefined
    ? { cron: trigger.cron, timezone: trigger.timezone ?? 'UTC' }
    : null;
}
