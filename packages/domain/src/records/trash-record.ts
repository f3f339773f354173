import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { appendRecordEvent } from '../record-model/record-events.ts';
import { recordColumns, serializeRecord } from '../record-model/serialize.ts';
import { hideLinksOf } from '../relations/trash-links.ts';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { loadRecord } from './load-record.ts';

/**
 * DELETE moves a record to Trash (docs/api.md, "Records"); a trashed record is not found again,
 * and its links are hidden until a restore (docs/api.md, "Relations").
 */
export async function trashRecord(db: Database, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    await loadRecord(tx, actor, id, { forUpdate: true });
    const r = schema.records;
    const [row] = await tx
      .update(r)
      .set({ trashedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, id)))
      .returning(recordColumns);
    if (!row) missing('the row update … returning wrote (row)');
    await appendRecordEvent(tx, actor, 'record.trashed', row);
    await hideLinksOf(tx, actor, row);
    return serializeRecord(row);
  });
}
