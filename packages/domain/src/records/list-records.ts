import { type Database, isSharded, schema } from '@crm/db';
import { and, eq, gte, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { findRecordsInput, RecordOutput } from '../record-model/schemas.ts';
import {
  type RecordRow,
  recordColumns,
  recordRowFromDriver,
  serializeRecord,
} from '../record-model/serialize.ts';
import { expandKeys, expandRecords, workspaceFolders } from '../relations/expand.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { canonicalTree, type FilterTree, fieldsOf } from '../shared/list-filter.ts';
import { type CountMode, checkFilterFields, findListPage } from '../shared/list-query.ts';
import { fingerprint, type ListSort, parseSort } from '../shared/list-sort.ts';
import { signatureMayHold } from '../shared/search-signature.ts';
import { searchMatch } from '../shared/search-text.ts';
import type { TextWalk } from '../shared/text-walk.ts';
import { recordFields } from './record-fields.ts';
import { recordsVisibleShare } from './records-visible.ts';
import { searchTextsLowered } from './search-texts-lowered.ts';
import { sortedText } from './sorted-text.ts';

const r = schema.records;
const DEFAULT_SORT = '-createdAt';

type FindInput = z.infer<typeof findRecordsInput>;

export interface ListInput extends Omit<FindInput, 'filter' | 'trashed' | 'count'> {
  filter: FilterTree | undefined;
  trashed?: boolean | undefined;
  count?: CountMode;
}

/** What a list of related records adds to the plain list: its scope, and each row's link. */
export interface Related<Row extends RecordRow, Item extends RecordOutput> {
  scope: SQL;
  print: unknown[];
  columns: Record<string, PgColumn | SQL.Aliased>;
  fromDriver: (raw: Record<string, unknown>) => Row;
  serialize: (row: Row) => Item;
}

export async function listRecords<
  Row extends RecordRow = RecordRow,
  Item extends RecordOutput = RecordOutput,
>(db: Database, actor: Actor, input: ListInput, related?: Related<Row, Item>) {
  if (input.search !== undefined && input.q !== undefined && input.search !== input.q) {
    throw invalid('q', 'search and q mean the same; give one of them, or the same text in both');
  }
  const expand = expandKeys(input.expand);
  const text = (input.search ?? input.q)?.trim();
  const folder = input.folderId === undefined ? null : await loadFolder(db, actor, input.folderId);
  const sortName = input.sort ?? DEFAULT_SORT;
  const fields = await recordFields(db, actor, folder, fieldsOf(input.filter), sortName.replace(/^-/, ''));
  checkFilterFields(input.filter, fields.table);
  const parsed = parseSort(sortName, fields.sortable, 'createdAt, updatedAt, title or data.<key>');
  // A TEXT, EMAIL or URL field's order, where its index holds every value (sorted-text.ts).
  const textOrder = await sortedText(db, actor.workspaceId, parsed, input.trashed === true);
  const sort = textOrder ?? parsed;
  const updatedSince = input.updatedSince ? gte(r.updatedAt, new Date(input.updatedSince)) : undefined;
  const sharded = text !== undefined && text !== '' && (await isSharded(db));
  // The list's conditions that the indexes of its orders hold: a text search walks them (textWalk).
  const inWorkspace = eq(r.workspaceId, actor.workspaceId);
  const inFolder = folder ? eq(r.folderId, folder.id) : undefined;
  /** The rest's own form of the workspace's and the folder's conditions (`restWorkspace`, `restFolder`). */
  const restForms = (condition: SQL): SQL | undefined => {
    if (condition === inWorkspace)
      return restWorkspace(actor.workspaceId, sharded || input.filter !== undefined);
    return folder && condition === inFolder ? restFolder(folder.id) : undefined;
  };
  const indexed: SQL[] = [
    inWorkspace,
    input.trashed ? isNotNull(r.trashedAt) : isNull(r.trashedAt),
    ...(inFolder ? [inFolder] : []),
    ...(updatedSince && sort.name === 'updatedAt' ? [updatedSince] : []),
  ];
  const scope: (SQL | undefined)[] = [
    ...indexed,
    // A key limited to folders lists only theirs (docs/api.md, "Scopes").
    !folder && actor.folderIds !== null ? inArray(r.folderId, [...actor.folderIds]) : undefined,
    text ? searchMatch(r.searchText, text, await searchTextsLowered(db)) : undefined,
    updatedSince,
    related?.scope,
  ];
  const print = fingerprint([
    ...(related ? related.print : []),
    'records',
    sortName,
    canonicalTree(input.filter),
    folder?.id ?? null,
    text ?? null,
    input.updatedSince ?? null,
    input.trashed ?? false,
  ]);
  const page = await findListPage(db, {
    table: r,
    columns: (related?.columns ?? recordColumns) as Record<string, PgColumn>,
    fromDriver: (related?.fromDriver ?? recordRowFromDriver) as (raw: Record<string, unknown>) => Row,
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
    serialize: (related?.serialize ?? serializeRecord) as (row: Row) => Item,
    ...(text && !related
      ? {
          walk: {
            ...textWalk(
              text,
              inWorkspace,
              indexed,
              walkOf(sort, input.trashed === true, textOrder !== undefined),
              await recordsVisibleShare(db),
            ),
            restScope: scope.map((c) => (c && restForms(c)) ?? c),
          },
        }
      : {}),
  });
  if (expand.length === 0) return page;
  const folders = folder ? [folder] : await workspaceFolders(db, actor);
  return { ...page, data: await expandRecords(db, actor, page.data, expand, folders) };
}

/**
 * The workspace condition of a `q` search's rest (shared/text-walk.ts): as the trigram index
 * keys it (`searchWorkspace`), so that the index is asked for this workspace's matches alone.
 * Written plainly too (`plain`) when the list has a filter, whose index PostgreSQL may then
 * take instead (a filter that a few hundred records pass), and on a sharded database, which
 * sends a statement to one shard by it. Otherwise not: PostgreSQL then also read the primary
 * key's entries of the whole workspace to AND them with the trigram index's, which narrowed
 * nothing (65 ms for a workspace of 340,000 records).
 */
function restWorkspace(workspaceId: string, plain: boolean): SQL {
  const keyed = sql`${schema.searchWorkspace(r.workspaceId)} = ${workspaceId}`;
  return plain ? (and(eq(r.workspaceId, workspaceId), keyed) as SQL) : keyed;
}

/**
 * The folder condition of a `q` search's rest: as the trigram index keys it (`searchFolder`),
 * so that the index is asked for this folder's matches alone. No other index holds the folder
 * so, and no list without `q` names it so (migration 0030).
 */
function restFolder(folderId: string): SQL {
  return sql`${schema.searchFolder(r.folderId)} = ${folderId}`;
}

/**
 * The live records' orders whose indexes hold `search_lower`, `search_signature` (and
 * `folder_id`): a `q` search walks them reading the index alone (migrations 0020, 0023, 0028).
 */
const INDEX_ONLY = new Set(['createdAt', 'updatedAt', 'title']);

/**
 * How a `q` search can walk a list in its order: reading the index alone (`index`), reading
 * each record (`table`: the index of a NUMBER or DATE field, whose many values each hold a
 * few records; that of a TEXT, EMAIL or URL field when it holds every value of the list,
 * `text`, sorted-text.ts; and the Trash), or not at all (`none`): no index holds the order
 * (MULTI_SELECT values, long TEXT values), or one does with so few values (SELECT, BOOLEAN)
 * that ordering by value then id sorts a large part of the list first. Without a walk the
 * search reads every match through the trigram index and sorts them.
 */
function walkOf(sort: ListSort, trashed: boolean, text: boolean): 'index' | 'table' | 'none' {
  const type = sort.field.definition?.type;
  if (type === undefined) return !trashed && INDEX_ONLY.has(sort.name) ? 'index' : 'table';
  return type === 'NUMBER' || type === 'DATE' || text ? 'table' : 'none';
}

/**
 * How far a `q` search walks a list of records before it asks the trigram index for the rest
 * (shared/text-walk.ts): at most 40,000 index rows (about 16 ms on two cores where the table's
 * pages are all-visible, fewer where they are not: `textWalk`) and 1,500 records read from the
 * table (about 15 ms). A term the walk does not find there is most often rare, and the
 * trigram index finds a rare term's matches in 5 to 10 ms; a common term absent from the head
 * of the list costs the rest a read of every match. 40,000 rather than 10,000 since runs that
 * alternated the two (docs/performance.md, "Search", log of 2026-11-29 09:24): a common term
 * absent from the newest records is reached more often, rare terms no slower. Tests lower
 * them to see both paths on a few records. In an order whose index holds `search_lower` (the search text lower-cased, null when long) and
 * `search_signature` (for a long text) a row is tested on the index (`indexedCandidate`); only
 * the rows that may match are read from the table (`walkOf`).
 */
export const searchWalk = { rows: 40_000, reads: 1_500 };

/**
 * Index rows a walk reads at most where each row costs a read of the table (an order whose
 * index does not hold the list's scope, the Trash) or where that cost is not known (a
 * sharded database's coordinator, which counts no pages): the bound every walk had before
 * 2026-11-29, about 100 ms if none of the rows' pages is in memory.
 */
const TABLE_WALK_ROWS = 10_000;

/**
 * A record that may hold `text`, from what the walk indexes hold: its `search_lower` when it has
 * one, else its signature when that can tell (shared/search-signature.ts), else any record.
 */
function indexedCandidate(text: string): SQL {
  const signed = signatureMayHold(r.searchSignature, text);
  return sql`(case when ${r.searchLower} is not null then strpos(${r.searchLower}, lower(${text}::text)) > 0 else ${signed ?? sql`true`} end)`;
}

/**
 * The walk of a list in its order. Reading an index alone costs a tenth of reading a record
 * only where the table's pages are all-visible; elsewhere each index row is a read of the
 * table too. So a walk on the index alone reads at most as many index rows as would, at the
 * share of pages that are not all-visible (`recordsVisibleShare`), cost as many reads of the
 * table as the records it may read (`searchWalk.reads`), and never more than `searchWalk.rows`:
 * after a bulk change, until autovacuum runs, a walk costs about what it cost before the index
 * held the text of long records. Other walks read at most `TABLE_WALK_ROWS`.
 */
function textWalk(
  text: string,
  workspace: SQL,
  indexed: SQL[],
  walk: 'index' | 'table' | 'none',
  visible: number | undefined,
): TextWalk {
  const rows =
    walk === 'none'
      ? 0
      : walk === 'index' && visible !== undefined
        ? Math.min(searchWalk.rows, Math.round(searchWalk.reads / Math.max(1 - visible, 0.01)))
        : Math.min(searchWalk.rows, TABLE_WALK_ROWS);
  return {
    keys: [r.workspaceId, r.id],
    workspace,
    scope: indexed,
    candidate: walk === 'index' ? indexedCandidate(text) : sql`true`,
    rows,
    reads: searchWalk.reads,
  };
}
