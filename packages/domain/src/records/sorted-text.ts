import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { textIndexName, textLengthSql } from '../folders/field-indexes.ts';
import type { ListSort } from '../shared/list-sort.ts';

const r = schema.records;
const TEXT_TYPES = new Set(['TEXT', 'EMAIL', 'URL']);

/**
 * A list of records sorted by a TEXT, EMAIL or URL field, made walkable in its order: the sort
 * whose records with a value are those with a value of at most 512 bytes, when that is the
 * same set of records, or undefined when the list cannot be walked in its order.
 *
 * The order of such a key is an index of its short values (`records_text_<key>_idx`,
 * folders/field-indexes.ts), so a list sorted by it reads its records in order as one sorted by
 * a NUMBER does, where it would otherwise read every record of the list (or every match of a
 * `q` search) and sort them (docs/performance.md, "Search"). That index holds every value of
 * the list only when the workspace holds no value of the key over 512 bytes, which the index of
 * where long values are (`records_text_<key>_long_idx`) answers in one index probe; then
 * "has a value" is written as the index's predicate, so that PostgreSQL can match the index to
 * the part of the list with values. A workspace that holds a long value of the key, or a key
 * whose indexes are not built (a key past the number of field indexes, or while the worker
 * builds those of fields from before them), is listed as before.
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
  const definition = sort.field.definition;
  // The indexes hold live records only.
  if (trashed || !definition || !TEXT_TYPES.has(definition.type)) return undefined;
  const { key } = definition;
  const names = [textIndexName(key, 'short'), textIndexName(key, 'long')];
  const built = await db.execute<{ valid: number }>(
    sql`select count(*)::int as valid from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relname in ${names} and c.relnamespace = current_schema()::regnamespace and i.indisvalid`,
  );
  if ((built.rows[0]?.valid ?? 0) < names.length) return undefined;
  const present = sql.raw(`(records.data ? '${key}')`);
  const long = await db
    .select({ one: sql`1` })
    .from(r)
    .where(
      and(
        eq(r.workspaceId, workspaceId),
        isNull(r.trashedAt),
        present,
        sql.raw(textLengthSql(key, 'long', 'records.data')),
      ),
    )
    .limit(1);
  if (long.length > 0) return undefined;
  return {
    ...sort,
    field: {
      ...sort.field,
      present: sql.raw(`(records.data ? '${key}' and ${textLengthSql(key, 'short', 'records.data')})`),
    },
  };
}
