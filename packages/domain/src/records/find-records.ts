import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, desc, eq, gte, ilike, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import { prepared } from '../shared/prepared.ts';
import type { findRecordsInput } from './schemas.ts';
import { likePattern } from './search-text.ts';
import { serializeRecord } from './serialize.ts';

/** A page of records, newest first, filtered as contract §3 describes. */
export async function findRecords(db: Database, actor: Actor, input: z.infer<typeof findRecordsInput>) {
  if (input.search !== undefined && input.q !== undefined && input.search !== input.q) {
    throw invalid('q', 'search and q mean the same; give one of them, or the same text in both');
  }
  const paging = resolvePaging(input);
  const text = (input.search ?? input.q)?.trim();
  const r = schema.records;
  const conditions: (SQL | undefined)[] = [
    eq(r.workspaceId, actor.workspaceId),
    input.trashed === 'true' ? isNotNull(r.trashedAt) : isNull(r.trashedAt),
  ];
  if (input.folderId !== undefined) {
    await loadFolder(db, actor, input.folderId);
    conditions.push(eq(r.folderId, input.folderId));
  }
  if (text) conditions.push(ilike(r.searchText, likePattern(text)));
  if (input.updatedSince) conditions.push(gte(r.updatedAt, new Date(input.updatedSince)));
  if (paging.kind === 'cursor') {
    const at = new Date(paging.after.createdAt);
    conditions.push(or(lt(r.createdAt, at), and(eq(r.createdAt, at), lt(r.id, paging.after.id))));
  }
  const rows = await db
    .select()
    .from(r)
    .where(and(...conditions))
    .orderBy(desc(r.createdAt), desc(r.id))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  return toPage(rows, paging, serializeRecord);
}

/** One live record; the hot read, so its statement is prepared once. */
export async function getRecord(db: Database, actor: Actor, id: string) {
  if (!isId('record', id)) throw notFound('Record', id);
  const [row] = await prepared(db, 'get_live_record', liveRecordById).execute({
    workspaceId: actor.workspaceId,
    id,
  });
  if (!row) throw notFound('Record', id);
  return serializeRecord(row);
}

function liveRecordById(db: Database) {
  const r = schema.records;
  return db
    .select()
    .from(r)
    .where(
      and(
        eq(r.workspaceId, sql.placeholder('workspaceId')),
        eq(r.id, sql.placeholder('id')),
        isNull(r.trashedAt),
      ),
    )
    .prepare('get_live_record');
}
