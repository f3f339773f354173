import { createHash } from 'node:crypto';
import { asc, desc, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { decodeCursor, encodeCursor, sortedCursor } from './cursor.ts';
import { invalid } from './errors.ts';
import type { ListField } from './list-fields.ts';
import { isRealDate } from './schemas.ts';

/**
 * Sorts and keyset cursors of lists (docs/api.md, "Filters, sorts and counts"): `sort=<field>`
 * ascending, `sort=-<field>` descending, the id breaking ties in the same direction. Rows
 * without a value (a NULL column, a custom field not set) come last in either direction.
 */
export interface ListSort {
  /** As given, without the sign: `updatedAt`, `data.score`. */
  name: string;
  field: ListField;
  dir: 'asc' | 'desc';
}

/**
 * The `sort` parameter of a list: one of `columns`, or `data.<key>` when the resource has
 * custom values (`dataKey`: the pattern of a key), with `-` before it for descending. The
 * pattern lets the document state what may be sent; whether a key names a field of the
 * workspace is judged by the list (a 400 naming `sort` as well).
 */
export function sortParam(columns: readonly string[], dataKey: string | null, description: string) {
  const names = [...columns, ...(dataKey ? [`data\\.${dataKey}`] : [])];
  const all = [...columns, ...(dataKey ? ['data.<key>'] : [])];
  const sortable = `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
  return z
    .string()
    .max(200)
    .regex(new RegExp(`^-?(?:${names.join('|')})$`), {
      error: (issue) =>
        `cannot sort by ${String(issue.input).replace(/^-/, '') || '(nothing)'}; sort by ${sortable}, or - before one`,
    })
    .optional()
    .meta({ description });
}

/** Parses `sort`; `fieldOf` resolves a name to a sortable field or throws a 400 naming `sort`. */
export function parseSort(
  value: string,
  fieldOf: (name: string) => ListField | undefined,
  sortable: string,
): ListSort {
  const dir = value.startsWith('-') ? 'desc' : 'asc';
  const name = dir === 'desc' ? value.slice(1) : value;
  const field = fieldOf(name);
  if (!field)
    throw invalid('sort', `cannot sort by ${name || '(nothing)'}; sort by ${sortable}, or - before one`);
  return { name, field, dir };
}

/**
 * Where a page starts: after the last row's sort value and id. Its cursor (`sortedCursor`)
 * also carries the fingerprint of the list's sort and filters: a cursor used with another
 * sort or other filters is a 400.
 */
export interface Cursor {
  value: unknown;
  id: string;
}

export function fingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeListCursor(print: string, value: unknown, id: string): string {
  return encodeCursor({ print, value, id }, sortedCursor);
}

export function decodeListCursor(cursor: string, print: string, sort: ListSort): Cursor {
  const { print: given, value, id } = decodeCursor(cursor, sortedCursor);
  if (given !== print) {
    throw invalid('cursor', 'belongs to another sort or other filters; start again without cursor');
  }
  if (value === null ? !sort.field.nullable : !fitsKind(sort.field, value)) throw sortedCursor.refusal();
  return { value, id };
}

function fitsKind(field: ListField, value: unknown): boolean {
  if (field.json) return true;
  if (typeof value !== 'string') return false;
  switch (field.kind) {
    case 'instant':
      return !Number.isNaN(Date.parse(value));
    case 'date':
      return isRealDate(value);
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(value);
    default:
      return true;
  }
}

/** A value of the sort (a cursor's, a row's as the driver gave it) as SQL of the sort expression's type. */
export function sortBound(field: ListField, value: unknown): SQL {
  if (field.json) return sql`${JSON.stringify(value)}::jsonb`;
  switch (field.kind) {
    case 'instant':
      return sql`${value}::timestamptz`;
    case 'date':
      return sql`${value}::date`;
    case 'number':
      return sql`${value}::numeric`;
    default:
      return sql`${value}::text`;
  }
}

/**
 * Rows after the cursor among rows that have a value: a row comparison, which PostgreSQL
 * turns into an index bound (`(created_at, id) < (…)` starts the scan at the cursor; an OR of
 * the two comparisons would make it scan from the first row and filter).
 */
export function afterValue(sort: ListSort, id: PgColumn, cursor: Cursor): SQL {
  const sign = sort.dir === 'asc' ? sql`>` : sql`<`;
  return sql`(${sort.field.expr}, ${id}) ${sign} (${sortBound(sort.field, cursor.value)}, ${cursor.id}::text)`;
}

/** Among rows without a value, which are ordered by id alone. */
export function afterId(sort: ListSort, id: PgColumn, cursor: Cursor): SQL {
  return sort.dir === 'asc' ? sql`${id} > ${cursor.id}` : sql`${id} < ${cursor.id}`;
}

/**
 * ORDER BY among rows that have a value: plain `asc`/`desc`, so that an index on the
 * expression serves either direction (no NULL is left to place).
 */
function valueOrder(sort: ListSort, id: PgColumn): SQL[] {
  const by = sort.dir === 'asc' ? asc : desc;
  return [by(sort.field.expr), by(id)];
}

/** ORDER BY over all rows at once (offset pages): NULLS LAST in both directions. */
export function fullOrder(sort: ListSort, id: PgColumn): SQL[] {
  if (!sort.field.nullable) return valueOrder(sort, id);
  const by = sort.dir === 'asc' ? sql`asc` : sql`desc`;
  return [sql`${sort.field.expr} ${by} nulls last`, sort.dir === 'asc' ? asc(id) : desc(id)];
}

/** True for the rows that have a value for the sort. */
export function hasValue(sort: ListSort): SQL {
  return sort.field.present ?? sql`${sort.field.expr} is not null`;
}
