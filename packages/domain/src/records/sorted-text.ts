import type { Executor } from '@crm/db';
import { and, type SQL, sql } from 'drizzle-orm';
import { hasTextOrder, textIndexName, textLengthSql } from '../folders/field-indexes.ts';
import type { ListSort } from '../shared/list-sort.ts';

/**
 * A list of records sorted by a TEXT, EMAIL or URL field, made walkable in its order: the sort
 * whose records with a value are those with a value of at most 512 bytes, when that is the
 * same set of records, or undefined when the list cannot be walked in its order.
 *
 * The order of such a key is an index of its short values (`records_text_<key>_idx`,
 * folders/field-indexes.ts), so a list sorted by it reads its records in order as one sorted by
 * a NUMBER does, where it would otherwise read every record of the list (or every match of a
 * `q` search) and sort them (docs/performance.md, "Sorted by a TEXT field"). That index holds
 * every value of the list only when the workspace holds no value of the key over 512 bytes,
 * which the index of where long values are (`records_text_<key>_long_idx`) answers in one
 * index probe; then "has a value" is written as the index's predicate, so that PostgreSQL can
 * match the index to the part of the list with values. A workspace that holds a long value of
 * the key, or a key whose indexes are not built (a key past the number of field indexes, or
 * while the worker builds those of fields from before them), is listed as before.
 *
 * A long value written while a page is read may be listed among the records without a value
 * on that page: the list's docs say that a record changed during a walk may be met out of
 * place (docs/api.md, "Cursors under sorts and filters"). The Trash is listed as before.
 */
export async function sortedText(
  db: Executor,
  workspaceId: string,
  sort: ListSort,
  trashed: boolean,
): Promise<ListSort | undefined> {
  const { definition, present } = sort.field;
  // The indexes hold live records only.
  if (trashed || !definition || !present || !hasTextOrder(definition.type)) return undefined;
  const { key } = definition;
  const names = [textIndexName(key, 'short'), textIndexName(key, 'long')];
  const length = (values: 'short' | 'long'): SQL => sql.raw(textLengthSql(key, values, 'records.data'));
  // One statement: the probe for a long value runs only once both indexes are known valid
  // (PostgreSQL evaluates a CASE branch's subquery only when it is reached), since without its
  // index it would read the workspace's records.
  const answer = await db.execute<{ walkable: boolean | null }>(
    sql`select case when (select count(*) from pg_index i join pg_class c on c.oid = i.indexrelid
                           where c.relname in ${names} and c.relnamespace = current_schema()::regnamespace
                             and i.indisvalid) = ${names.length}
                    then not exists (select 1 from records
                                      where records.workspace_id = ${workspaceId}
                                        and records.trashed_at is null and ${present} and ${length('long')})
               end as walkable`,
  );
  if (answer.rows[0]?.walkable !== true) return undefined;
  return { ...sort, field: { ...sort.field, present: and(present, length('short')) as SQL } };
}
