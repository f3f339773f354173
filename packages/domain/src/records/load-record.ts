import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { RecordRow } from '../record-model/serialize.ts';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';

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
  if (!isId('record', id)) throw notFound('Record', id);
  const r = schema.records;
  const query = tx
    .select()
    .from(r)
    .where(
      and(
        eq(r.workspaceId, actor.workspaceId),
        eq(r.id, id),
        options.state === 'any'
          ? undefined
          : options.state === 'trashed'
            ? isNotNull(r.trashedAt)
            : isNull(r.trashedAt),
      ),
    );
  const rows = await (options.forUpdate ? query.for('update') : query);
  const row = rows[0];
  // A record of a folder the caller does not reach is not found for it (docs/api.md, "Scopes").
  if (!row || !reachesFolder(actor, row.folderId)) throw notFound('Record', id);
  return row;
}
