import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';

/**
 * True when `recordId` is a live record of the workspace. The share lock keeps it out of
 * Trash until the transaction that links a task to it ends.
 */
export async function isLiveRecord(tx: Executor, actor: Actor, recordId: string): Promise<boolean> {
  if (!isId('record', recordId)) return false;
  const r = schema.records;
  // By the primary key alone, whether it is in Trash read on the row (see loadInWorkspace).
  const [row] = await tx
    .select({ folderId: r.folderId, live: sql<boolean>`${r.trashedAt} is null` })
    .from(r)
    .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, recordId)))
    .for('share');
  // A key limited to folders names only records of those (docs/api.md, "Scopes").
  return row?.live === true && reachesFolder(actor, row.folderId);
}

/** A `recordId` in a task body must be a live record of the workspace (docs/api.md, "Tasks"). */
export async function assertLiveRecord(tx: Executor, actor: Actor, recordId: string): Promise<void> {
  if (!(await isLiveRecord(tx, actor, recordId))) {
    throw invalid('recordId', `record ${recordId} does not exist`);
  }
}

export async function isMember(tx: Executor, actor: Actor, userId: string): Promise<boolean> {
  if (!isId('user', userId)) return false;
  const m = schema.memberships;
  const rows = await tx
    .select({ userId: m.userId })
    .from(m)
    .where(and(eq(m.workspaceId, actor.workspaceId), eq(m.userId, userId)));
  return rows.length > 0;
}
