import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { findRecordItems, getRecordItem } from '../records/find-record-items.ts';
import type { Actor } from '../shared/actor.ts';
import type { FindCallsInput, GetCallInput } from './schemas.ts';
import { serializeCallLog } from './serialize.ts';

/**
 * A page of a live record's call logs, oldest first by when they were logged (docs/api.md,
 * "Comments and call logs").
 */
export function findCalls(db: Database, actor: Actor, input: FindCallsInput) {
  return findRecordItems(db, actor, schema.callLogs, input, serializeCallLog);
}

/** One call log of a live record (404 when the record or the call is not found). */
export function getCall(db: Database, actor: Actor, input: GetCallInput) {
  return getRecordItem(
    db,
    actor,
    schema.callLogs,
    { id: input.id, itemId: input.callId },
    { kind: 'call', name: 'Call log' },
    serializeCallLog,
  );
}
