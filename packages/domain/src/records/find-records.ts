import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, gte, ilike, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import {
  canonicalTree,
  type FilterTree,
  fieldsOf,
  treeFromNode,
  treeFromParam,
} from '../shared/list-filter.ts';
import { checkFilterFields, findListPage } from '../shared/list-query.ts';
import { fingerprint, parseSort } from '../shared/list-sort.ts';
import { driverRows, prepared } from '../shared/prepared.ts';
import { recordFields } from './record-fields.ts';
import type { findRecordsInput, queryRecordsInput } from './schemas.ts';
import { likePattern } from './search-text.ts';
import { recordColumns, recordRowFromDriver, serializeRecord } from './serialize.ts';

const r = schema.records;
const DEFAULT_SORT = '-createdAt';

type FindInput = z.infer<typeof findRecordsInput>;
type QueryInput = z.infer<typeof queryRecordsInput>;

/**
 * A page of records (contract §3), newest first unless sorted, narrowed by the query-string
 * filters (docs/api.md, "Filters, sorts and counts").
 */
export async function findRecords(db: Database, actor: Actor, input: FindInput) {
  const { filter, trashed, count, ...rest } = input;
  return listRecords(db, actor, {
    ...rest,
    trashed: trashed === 'true',
    count: count === 'true',
    filter: treeFromParam(filter),
  });
}

/** `POST /records/query`: the same list with a JSON filter of `and`, `or` and `not`. */
export async function queryRecords(db: Database, actor: Actor, input: QueryInput) {
  const { filter, ...rest } = input;
  return listRecords(db, actor, { ...rest, filter: treeFromNode(filter) });
}

interface ListInput extends Omit<FindInput, 'filter' | 'trashed' | 'count'> {
  filter: FilterTree | undefined;
  trashed?: boolean | undefined;
  count?: boolean | undefined;
}

async function listRecords(db: Database, actor: Actor, input: ListInput) {
  if (input.search !== undefined && input.q !== undefined && input.search !== input.q) {
    throw invalid('q', 'search and q mean the same; give one of them, or the same text in both');
  }
  const text = (input.search ?? input.q)?.trim();
  const folder = input.folderId === undefined ? null : await loadFolder(db, actor, input.folderId);
  const sortName = input.sort ?? DEFAULT_SORT;
  const fields = await recordFields(db, actor, folder, fieldsOf(input.filter), sortName.replace(/^-/, ''));
  checkFilterFields(input.filter, fields.table);
  const sort = parseSort(sortName, fields.sortable, 'createdAt, updatedAt, title or data.<key>');
  const scope: (SQL | undefined)[] = [
    eq(r.workspaceId, actor.workspaceId),
    input.trashed ? isNotNull(r.trashedAt) : isNull(r.trashedAt),
    folder ? eq(r.folderId, folder.id) : undefined,
    text ? ilike(r.searchText, likePattern(text)) : undefined,
    input.updatedSince ? gte(r.updatedAt, new Date(input.updatedSince)) : undefined,
  ];
  const print = fingerprint([
    'records',
    sortName,
    canonicalTree(input.filter),
    folder?.id ?? null,
    text ?? null,
    input.updatedSince ?? null,
    input.trashed ?? false,
  ]);
  return findListPage(db, {
    table: r,
    columns: recordColumns,
    fromDriver: recordRowFromDriver,
    id: r.id,
    scope,
    fields: fields.table,
    request: {
      filter: input.filter,
      sort,
      legacy: sortName === DEFAULT_SORT && input.filter === undefined,
      print,
      page: input.page,
      pageSize: input.pageSize,
      cursor: input.cursor,
      count: input.count,
    },
    serialize: serializeRecord,
  });
}

/** One live record; the hot read, so its statement is prepared once. */
export async function getRecord(db: Database, actor: Actor, id: string) {
  if (!isId('record', id)) throw notFound('Record', id);
  const [row] = await driverRows(prepared(db, 'get_live_record', liveRecordById), {
    workspaceId: actor.workspaceId,
    id,
  });
  if (!row) throw notFound('Record', id);
  return serializeRecord(recordRowFromDriver(row));
}

function liveRecordById(db: Database) {
  const r = schema.records;
  return db
    .select(recordColumns)
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
