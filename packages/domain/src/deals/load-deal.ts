import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, isNull } from 'drizzle-orm';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import { missing } from '../shared/missing.ts';
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
    const live = and(eq(r.workspaceId, actor.workspaceId), eq(r.id, recordId), isNull(r.trashedAt));
    if (actor.folderIds === null) {
      const rows = await tx.select({ id: r.id }).from(r).where(live).for('share');
      if (rows.length > 0) return;
    } else {
      // A key limited to folders names only records of those (docs/api.md, "Scopes").
      const rows = await tx.select({ folderId: r.folderId }).from(r).where(live).for('share');
      if (rows.length > 0 && reachesFolder(actor, (rows[0] ?? missing('rows[0]')).folderId)) return;
    }
  }
  throw invalid(path, `${recordId} is not a live record of this workspace`);
}
