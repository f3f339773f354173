import { type Database, schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { getRecordInput } from '../record-model/schemas.ts';
import {
  type RecordRow,
  recordColumns,
  recordRowFromDriver,
  serializeRecord,
} from '../record-model/serialize.ts';
import { expandKeys, expandRecord, readRecordExpanded } from '../relations/expand.ts';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { driverRows, prepared } from '../shared/prepared.ts';

/**
 * One live record; the hot read, so its statement is prepared once. `expand` adds the records
 * its ONE relation fields link to (docs/api.md, "Relations").
 */
export async function getRecord(db: Database, actor: Actor, input: z.output<typeof getRecordInput>) {
  const { id, expand } = input;
  const keys = expandKeys(expand);
  if (!isId('record', id)) throw notFound('Record', id);
  if (keys.length > 0) {
    // The record and the records it links to in one statement; its folder, whose fields say
    // which keys are ONE relations, from the folder cache.
    const read = await readRecordExpanded(db, actor, id, keys);
    if (!read || !reachesFolder(actor, read.row.folderId)) throw notFound('Record', id);
    const folder = await loadFolder(db, actor, read.row.folderId);
    return expandRecord(serializeRecord(read.row), keys, folder, read.linked);
  }
  return serializeRecord(await liveRecordRow(db, actor, id));
}

/** A live record of the workspace by the prepared statement of `getRecord`, or NOT_FOUND. */
export async function liveRecordRow(db: Database, actor: Actor, id: string): Promise<RecordRow> {
  if (!isId('record', id)) throw notFound('Record', id);
  const [row] = await driverRows(prepared(db, 'get_live_record', liveRecordById), {
    workspaceId: actor.workspaceId,
    id,
  });
  if (!row) throw notFound('Record', id);
  const record = recordRowFromDriver(row);
  // A record in Trash, or of a folder the caller does not reach, is not found for it.
  if (record.trashedAt !== null || !reachesFolder(actor, record.folderId)) throw notFound('Record', id);
  return record;
}

/**
 * The record by its primary key alone, live or not (liveRecordRow leaves out one in Trash):
 * with `trashed_at is null` in its WHERE clause the planner may take a list's index instead,
 * and read every entry of a workspace its statistics do not know yet (loadInWorkspace).
 */
function liveRecordById(db: Database) {
  const r = schema.records;
  return db
    .select(recordColumns)
    .from(r)
    .where(and(eq(r.workspaceId, sql.placeholder('workspaceId')), eq(r.id, sql.placeholder('id'))))
    .prepare('get_live_record');
}
