import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { isNotNull, isNull } from 'drizzle-orm';
import type { RecordRow } from '../record-model/serialize.ts';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';

export interface LoadRecordOptions {
  /** `live` (default) treats a trashed record as not found; `trashed` finds only the Trash; `any` both. */
  state?: 'live' | 'trashed' | 'any';
  forUpdate?: boolean;
}

/**
 * Loads a record of the caller's workspace or throws NOT_FOUND: other workspaces' ids and trashed
 * records are not found (docs/api.md, "Requests and responses", "Records").
 */
export async function loadRecord(
  tx: Executor,
  actor: Actor,
  id: string,
  options: LoadRecordOptions = {},
): Promise<RecordRow> {
  const r = schema.records;
  const row = await loadInWorkspace(tx, r, actor.workspaceId, id, {
    kind: 'record',
    name: 'Record',
    ...(options.forUpdate ? { lock: 'update' } : {}),
    ...(options.state === 'any'
      ? {}
      : { where: options.state === 'trashed' ? isNotNull(r.trashedAt) : isNull(r.trashedAt) }),
  });
  // A record of a folder the caller does not reach is not found for it (docs/api.md, "Scopes").
  if (!reachesFolder(actor, row.folderId)) throw notFound('Record', id);
  return row;
}
