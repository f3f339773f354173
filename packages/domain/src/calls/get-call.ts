import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { getRecordItem } from '../records/find-record-items.ts';
import type { Actor } from '../shared/actor.ts';
import type { GetCallInput } from './schemas.ts';
import { serializeCallLog } from './serialize.ts';

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
