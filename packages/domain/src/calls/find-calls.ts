import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import { loadRecord } from '../records/load-record.ts';
import type { Actor } from '../shared/actor.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import type { FindCallsInput } from './schemas.ts';
import { serializeCallLog } from './serialize.ts';

/** A page of a live record's call logs, oldest first by when they were logged (contract §4). */
export async function findCalls(db: Database, actor: Actor, input: FindCallsInput) {
  const paging = resolvePaging(input);
  await loadRecord(db, actor, input.id);
  const c = schema.callLogs;
  const rows = await db
    .select()
    .from(c)
    .where(
      and(
        eq(c.workspaceId, actor.workspaceId),
        eq(c.recordId, input.id),
        afterCursor(c.createdAt, c.id, paging, 'asc'),
      ),
    )
    .orderBy(...keysetOrder(c.createdAt, c.id, 'asc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  return toPage(rows, paging, serializeCallLog);
}
