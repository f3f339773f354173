import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { sql } from 'drizzle-orm';
import { loadRecord } from '../records/load-record.ts';
import type { Actor } from '../shared/actor.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import type { CreateCallInput } from './schemas.ts';
import { serializeCallLog } from './serialize.ts';

/**
 * Logs a call on a live record with the defaults of docs/api.md, "Comments and call logs":
 * OUTBOUND, CONNECTED, now, and the record's phone when no phone is given.
 */
export async function createCall(db: Database, actor: Actor, input: CreateCallInput) {
  return db.transaction(async (tx) => {
    // Locked so a concurrent DELETE cannot trash the record between the check and the insert.
    const record = await loadRecord(tx, actor, input.id, { forUpdate: true });
    const phone = input.phone === undefined ? record.phone : input.phone || null;
    const [row] = await tx
      .insert(schema.callLogs)
      .values({
        workspaceId: actor.workspaceId,
        id: newId('call'),
        recordId: record.id,
        direction: input.direction ?? 'OUTBOUND',
        outcome: input.outcome ?? 'CONNECTED',
        duration: input.duration ?? null,
        phone,
        notes: input.notes || null,
        calledAt: input.calledAt ? new Date(input.calledAt) : sql`now()`,
        authorId: actor.userId,
      })
      .returning();
    if (!row) missing('the row insert … returning wrote (row)');
    return serializeCallLog(row);
  });
}
