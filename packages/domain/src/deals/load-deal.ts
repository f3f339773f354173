import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import type { DealRow } from './serialize.ts';

export async function loadDeal(
  tx: Executor,
  actor: Actor,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<DealRow> {
  if (!isId('deal', id)) throw notFound('Deal', id);
  const d = schema.deals;
  const query = tx
    .select()
    .from(d)
    .where(and(eq(d.workspaceId, actor.workspaceId), eq(d.id, id)));
  const [row] = await (options.forUpdate ? query.for('update') : query);
  if (!row) throw notFound('Deal', id);
  return row;
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
    const rows = await tx
      .select({ id: r.id })
      .from(r)
      .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, recordId), isNull(r.trashedAt)))
      .for('share');
    if (rows.length > 0) return;
  }
  throw invalid(path, `${recordId} is not a live record of this workspace`);
}
