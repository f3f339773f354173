import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { findRecordItems } from '../records/find-record-items.ts';
import type { Actor } from '../shared/actor.ts';
import type { FindCallsInput } from './schemas.ts';
import { serializeCallLog } from './serialize.ts';

/**
 * A page of a live record's call logs, oldest first by when they were logged (docs/api.md,
 * "Comments and call logs").
 */
export function findCalls(db: Database, actor: Actor, input: FindCallsInput) {
  return findRecordItems(db, actor, schema.callLogs, input, serializeCallLog);
}
