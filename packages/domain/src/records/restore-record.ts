import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { appendRecordEvent } from '../record-model/record-events.ts';
import { recordColumns, serializeRecord } from '../record-model/serialize.ts';
import { showLinksOf } from '../relations/trash-links.ts';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { loadRecord } from './load-record.ts';

/** Brings a record back from Trash. Restoring a live record changes nothing (safe to retry). */
export async function restoreRecord(db: Database, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const current = await loadRecord(tx, actor, id, { state: 'any', forUpdate: true });
    if (current.trashedAt === null) return serializeRecord(current);
    const r = schema.records;
    const [row] = await tx
      .update(r)
      .set({ trashedAt: null, updatedAt: sql`now()` })
      .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, id)))
      .returning(recordColumns);
    if (!row) missing('the row update … returning wrote (row)');
    const shown = await showLinksOf(tx, actor, row);
    await appendRecordEvent(tx, actor, 'record.restored', shown);
    return serializeRecord(shown);
  });
}
