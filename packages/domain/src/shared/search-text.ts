import type { FieldDefinition } from '@crm/db/schema';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * The text the `q` search looks in: title, email, phone and TEXT custom values joined by
 * newlines. `records.search_text` keeps it lower-cased by PostgreSQL (`searchTextValue`), so
 * that a search tests its term with LIKE against it (`searchMatch`): what ILIKE does with the
 * text and the pattern both lower-cased, without lower-casing each text it tests
 * (docs/performance.md, "Search"). Folding here in JavaScript and in SQL would disagree on
 * letters such as İ or final sigma, so it is left to SQL. `searchTextSql` computes the same
 * inside PostgreSQL for bulk updates after a folder's fields change.
 */
export function searchTextOf(
  record: { title: string; email: string | null; phone: string | null; data: Record<string, unknown> },
  fields: Pick<FieldDefinition, 'key' | 'type'>[],
): string {
  const parts: string[] = [record.title];
  if (record.email !== null) parts.push(record.email);
  if (record.phone !== null) parts.push(record.phone);
  for (const field of fields) {
    const value = record.data[field.key];
    if (field.type === 'TEXT' && typeof value === 'string') parts.push(value);
  }
  return parts.join('\n');
}

/**
 * `searchTextValue(searchTextOf(…))` in SQL. Built from `||` and `coalesce` rather than
 * `concat_ws`: those are immutable, and a sharded database runs no other functions on a column
 * in an UPDATE (docs/scaling.md). A null part is left out with its newline, as `concat_ws`
 * would.
 */
export function searchTextSql(fields: FieldDefinition[]): SQL {
  const parts = [
    sql`email`,
    sql`phone`,
    ...fields.filter((f) => f.type === 'TEXT').map((f) => sql`(data ->> ${f.key})`),
  ].map((part) => sql` || coalesce(E'\n' || ${part}, '')`);
  return sql`lower(title${sql.join(parts, sql``)})`;
}

/**
 * The value of `search_text` for a record's text (`searchTextOf`, or a column of a statement
 * that holds it): lower-cased by PostgreSQL.
 */
export function searchTextValue(text: string | SQLWrapper): SQL {
  return typeof text === 'string' ? sql`lower(${text}::text)` : sql`lower(${text})`;
}

/**
 * True for a record whose search text holds `text`, in any case, the wildcards of `text`
 * taken literally: `search_text` LIKE the pattern lower-cased when every record's search text
 * is lower-cased (`lowered`), ILIKE while some written by an earlier version are not yet
 * (records/search-texts-lowered.ts). The trigram index serves both.
 */
export function searchMatch(searchText: SQLWrapper, text: string, lowered: boolean): SQL {
  const pattern = likePattern(text);
  return lowered ? sql`${searchText} like lower(${pattern}::text)` : sql`${searchText} ilike ${pattern}`;
}

/** Escapes LIKE wildcards so the user's text is matched literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
