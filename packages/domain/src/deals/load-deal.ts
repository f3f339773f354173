import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import type { DealRow } from './serialize.ts';

export async function loadDeal(
  tx: Executor,
  actor: Actor,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<DealRow> {
  return loadInWorkspace(tx, schema.deals, actor.workspaceId, id, {
    kind: 'deal',
    name: 'Deal',
    ...(options.forUpdate ? { lock: 'update' } : {}),
  });
}

/** A deal may link only to a live record of its workspace (400 otherwise). */
export async function assertLiveRecord(
  tx: Executor,
  actor: Actor,
  recordId: string,
  path: string,
): Promise<void> {
  if (isId('record', recordId)) {
    const r = schema.records;
    // By the primary key alone, whether it is in Trash read on the row (see loadInWorkspace).
    const [row] = await tx
      .select({ folderId: r.folderId, live: sql<boolean>`${r.trashedAt} is null` })
      .from(r)
      .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, recordId)))
      .for('share');
    // A key limited to folders names only records of those (docs/api.md, "Scopes").
    if (row?.live && reachesFolder(actor, row.folderId)) return;
  }
  throw invalid(path, `${recordId} is not a live record of this workspace`);
}
