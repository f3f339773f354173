import type { FieldDefinition } from '@crm/db/schema';

/** An import's settings, as its job keeps them. */
export interface ImportParams {
  folderId: string;
  format: 'csv' | 'ndjson';
  mapping: Record<string, string>;
  upsertBy?: string;
  relations?: Record<string, 'id' | 'title' | 'email'>;
  notify?: boolean;
  dryRun?: boolean;
}

/** The body of `POST /records` a row stands for (before its checks, which are the batch's). */
export interface RecordItem {
  folderId: string;
  title?: unknown;
  email?: unknown;
  phone?: unknown;
  ownerId?: unknown;
  data: Record<string, unknown>;
}

/**
 * A row's values as a record's body, through the mapping: an empty CSV cell (or a null) is no
 * value; a MULTI_SELECT cell and a MANY relation's cell are lists separated by `;`; a relation
 * names its records by id, or by title or email when `relations` says so. Every other value
 * goes as it is, for the record's own checks (and their lenient reading of numbers, dates and
 * booleans written as text: docs/api.md, "Values from no-code tools") to take or refuse.
 */
export function itemOfRow(
  values: Record<string, unknown>,
  params: ImportParams,
  fields: readonly FieldDefinition[],
): RecordItem {
  const item: RecordItem = { folderId: params.folderId, data: {} };
  for (const [column, target] of Object.entries(params.mapping)) {
    const value = values[column];
    if (value === undefined || value === null || value === '') continue;
    if (!target.startsWith('data.')) {
      (item as unknown as Record<string, unknown>)[target] = typeof value === 'string' ? value.trim() : value;
      continue;
    }
    const key = target.slice(5);
    const field = fields.find((f) => f.key === key);
    item.data[key] = field ? fieldValue(field, value, params.relations?.[target] ?? 'id') : value;
  }
  return item;
}

function fieldValue(field: FieldDefinition, value: unknown, by: 'id' | 'title' | 'email'): unknown {
  const list = (v: unknown) =>
    typeof v === 'string'
      ? v
          .split(';')
          .map((part) => part.trim())
          .filter((part) => part !== '')
      : v;
  if (field.type === 'MULTI_SELECT') return list(value);
  if (field.type !== 'RELATION') return value;
  const reference = (name: unknown) => (by === 'id' || typeof name !== 'string' ? name : { [by]: name });
  if (field.relation?.cardinality === 'MANY') {
    const names = list(value);
    return Array.isArray(names) ? names.map(reference) : names;
  }
  return reference(typeof value === 'string' ? value.trim() : value);
}

/** The value of an item that `upsertBy` matches records on, or null when it has none. */
export function upsertKeyOf(item: RecordItem, upsertBy: string): string | null {
  const value = upsertBy.startsWith('data.')
    ? item.data[upsertBy.slice(5)]
    : (item as unknown as Record<string, unknown>)[upsertBy];
  if (value === undefined || value === null || value === '') return null;
  const text = typeof value === 'string' ? value.trim() : JSON.stringify(value);
  return upsertBy === 'email' ? text.toLowerCase() : text;
}
