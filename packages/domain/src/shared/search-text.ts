import type { FieldDefinition } from '@crm/db/schema';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The text the `q` search looks in: title, email, phone and TEXT custom values joined by
 * newlines, as written (ILIKE and the trigram index fold case; folding here in JavaScript
 * and in SQL would disagree on letters such as İ or final sigma). `searchTextSql` computes the same inside Postgres for bulk updates
 * after a folder's fields change.
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
 * `searchTextOf` in SQL. Built from `||` and `coalesce` rather than `concat_ws`: those are
 * immutable, and a sharded database runs no other functions on a column in an UPDATE
 * (docs/scaling.md). A null part is left out with its newline, as `concat_ws` would.
 */
export function searchTextSql(fields: FieldDefinition[]): SQL {
  const parts = [
    sql`email`,
    sql`phone`,
    ...fields.filter((f) => f.type === 'TEXT').map((f) => sql`(data ->> ${f.key})`),
  ].map((part) => sql` || coalesce(E'\n' || ${part}, '')`);
  return sql`(title${sql.join(parts, sql``)})`;
}

/** Escapes LIKE wildcards so the user's text is matched literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
