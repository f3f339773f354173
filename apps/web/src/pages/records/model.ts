import {
  type FilterFieldKind,
  filterKindOfFieldType,
  filterOperatorsByKind,
  type RecordColumn,
  recordColumns,
} from '@crm/constants';
import { formatInstant } from '../../lib/components.tsx';
import { optionsFromText, valueText } from '../../lib/format.ts';
import type { Inputs, Outputs } from '../../lib/query.ts';

/**
 * What the records table shows and asks for (docs/web-app.md, "Records table"): its columns,
 * the view (columns, sort, filters) and the list query a view makes.
 */

export type Folder = Outputs['folders']['list']['data'][number];
type FieldDef = Folder['fields'][number];
export type RecordItem = Outputs['records']['list']['data'][number];
export type SavedView = Outputs['views']['list']['data'][number];
export type ViewDefinition = SavedView['definition'];
export type ViewFilter = ViewDefinition['filters'][number];
export type FilterOp = ViewFilter['op'];
export type Member = Outputs['workspace']['members']['data'][number];

/** Rows a page of the table shows (the batch limit is 100, so a page's selection is one batch). */
const PAGE_SIZE = 50;

/** Most ONE relation fields a list expands at once (the API's limit, docs/api.md "Relations"). */
const MAX_EXPAND = 5;

/** Linked records a MANY relation cell shows as chips; "+N" counts the others. */
const MANY_CHIPS = 3;

export interface Column {
  /** `title`, `email`, `createdAt` … or `data.<key>`: what a view names. */
  key: string;
  label: string;
  kind: FilterFieldKind;
  /** The custom field behind a `data.<key>` column. */
  field?: FieldDef;
  /** The list sorts by it (docs/api.md, "Sorts"). */
  sortable: boolean;
  /** A cell of it can be edited in place. */
  editable: boolean;
  /** For a relation column: the folder of the records it links to. */
  relatesTo?: string;
  /**
   * A relation to several records: its links are not in `data` but read row by row with
   * `records.related`, and edited with `records.link` / `records.unlink`.
   */
  many?: boolean;
}

const OWN_LABELS: Record<RecordColumn, string> = {
  title: 'Title',
  email: 'Email',
  phone: 'Phone',
  ownerId: 'Owner',
  createdAt: 'Created',
  updatedAt: 'Updated',
};
const SORTABLE = new Set<string>(['title', 'createdAt', 'updatedAt']);
const EDITABLE = new Set<string>(['title', 'email', 'phone']);

/**
 * Every column the folder's table can show, in the default order. A relation column is
 * neither sorted by (the API refuses it) nor typed into: its editor is a search (table.tsx).
 * A ONE relation holds the linked record's id in `data`; a MANY relation's links are read for
 * each row (many-cell.tsx).
 */
export function columnsOf(folder: Folder): Column[] {
  const own = (Object.keys(recordColumns) as RecordColumn[]).map((key) => ({
    key,
    label: OWN_LABELS[key],
    kind: recordColumns[key],
    sortable: SORTABLE.has(key),
    editable: EDITABLE.has(key),
  }));
  const custom = folder.fields.map(
    (field): Column => ({
      key: `data.${field.key}`,
      label: field.label,
      kind: filterKindOfFieldType[field.type],
      field,
      sortable: !field.relation,
      editable: true,
      ...(field.relation ? { relatesTo: field.relation.folderId } : {}),
      ...(field.relation?.cardinality === 'MANY' ? { many: true } : {}),
    }),
  );
  // Title, email, phone, the folder's fields, then owner and the instants.
  return [...own.slice(0, 3), ...custom, ...own.slice(3)];
}

/** The view a folder opens with: title, email, phone, its fields and when each was created. */
export function defaultDefinition(folder: Folder): ViewDefinition {
  return {
    columns: ['title', 'email', 'phone', ...folder.fields.map((f) => `data.${f.key}`), 'createdAt'],
    sort: null,
    filters: [],
  };
}

export const OPERATOR_LABELS: Record<FilterOp, string> = {
  eq: 'is',
  ne: 'is not',
  in: 'is one of',
  contains: 'contains',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  empty: 'is empty',
};

/**
 * The operators a column's filter offers: those the list takes for its kind (a relation's
 * "is one of" aside: its record is picked with a search, one at a time).
 */
export function operatorsOf(column: Column): readonly FilterOp[] {
  const ops = filterOperatorsByKind[column.kind] as readonly FilterOp[];
  return column.relatesTo ? ops.filter((op) => op !== 'in') : ops;
}

/** The operator a filter on `column` starts with: its first (every kind has some). */
export function firstOperatorOf(column: Column): FilterOp {
  const [first] = operatorsOf(column);
  if (first === undefined) throw new Error(`No filter operator for a ${column.kind} column`);
  return first;
}

/** The column a filter starts on: the first of the table's (the title is always there). */
export function firstColumnOf(columns: readonly Column[]): Column {
  const [first] = columns;
  if (!first) throw new Error('The records table has no column');
  return first;
}

/**
 * A filter in words: `Score is at least 50`, `Email is empty`, `Company is Acme` (a relation's
 * record by its title, from `titles`, when known).
 */
export function describeFilter(
  filter: ViewFilter,
  columns: Column[],
  members: Member[],
  titles: ReadonlyMap<string, string> = new Map(),
): string {
  const label = columns.find((c) => c.key === filter.field)?.label ?? filter.field;
  if (filter.op === 'empty') return `${label} ${filter.value === 'true' ? 'is empty' : 'is not empty'}`;
  const value =
    filter.field === 'ownerId'
      ? (members.find((m) => m.id === filter.value)?.name ?? filter.value)
      : (titles.get(filter.value) ?? filter.value);
  return `${label} ${OPERATOR_LABELS[filter.op]} ${value}`;
}

/**
 * The ONE relation fields a list of these columns expands, so that each row comes with the
 * records it links to and no row needs a request of its own: the first MAX_EXPAND shown.
 */
export function expandOf(columns: Column[]): string[] {
  return columns
    .flatMap((c) => (c.relatesTo && !c.many && c.field ? [c.field.key] : []))
    .slice(0, MAX_EXPAND);
}

/**
 * The read behind a MANY relation cell: the first MANY_CHIPS records the row links to through
 * the column's field, newest first as the related list orders them, with their count
 * (`records.related`, `GET /records/{id}/related/{field}`). A list's `expand` covers ONE
 * fields only, so each row of the page asks for its own (one batch a page: lib/trpc.ts).
 */
export function relatedInput(record: RecordItem, column: Column): Inputs['records']['related'] {
  return { id: record.id, field: column.field?.key ?? '', pageSize: MANY_CHIPS, count: 'true' };
}

/**
 * The list query of a view, in the list's own parameters (docs/api.md, "Filters, sorts and
 * counts"): `filter[<field>][<op>]=<value>` for each filter, `sort`, the search text, and
 * `expand` for the ONE relation fields named.
 */
export function listInput(
  folderId: string,
  view: ViewDefinition,
  search: string,
  cursor: string | undefined,
  pageSize = PAGE_SIZE,
  expand: string[] = [],
): Inputs['records']['list'] {
  const filter: Record<string, Record<string, string>> = {};
  for (const f of view.filters) {
    filter[f.field] = { ...filter[f.field], [f.op]: f.value };
  }
  return {
    folderId,
    pageSize,
    ...(cursor ? { cursor } : {}),
    ...(search ? { search } : {}),
    ...(view.sort ? { sort: view.sort } : {}),
    ...(view.filters.length > 0 ? { filter } : {}),
    ...(expand.length > 0 ? { expand: expand.join(',') } : {}),
  };
}

/**
 * The record a ONE relation cell links to, as the list expanded it: `undefined` when the list
 * did not expand that field (past MAX_EXPAND), `null` when it links to none (or to a record in
 * Trash).
 */
export function linkedRecord(record: RecordItem, column: Column): RecordItem | null | undefined {
  if (!column.field) return null;
  const key = column.field.key;
  if (record.data[key] === undefined || record.data[key] === null) return null;
  if (!record.expanded || !(key in record.expanded)) return undefined;
  return record.expanded[key] ?? null;
}

/** A record's value of a column, as the API holds it. */
function recordValue(record: RecordItem, key: string): unknown {
  if (key.startsWith('data.')) return record.data[key.slice(5)];
  return (record as unknown as Record<string, unknown>)[key];
}

/** A value as the table shows it. */
export function cellText(record: RecordItem, column: Column, members: Member[]): string {
  const value = recordValue(record, column.key);
  if (value === undefined || value === null) return '';
  if (column.relatesTo) return linkedRecord(record, column)?.title ?? String(value);
  if (column.key === 'ownerId') return members.find((m) => m.id === value)?.name ?? String(value);
  if (column.kind === 'instant') return formatInstant(String(value));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return valueText(value);
}

/**
 * A value as the CSV export writes it: what an import reads back to the same value (instants
 * in ISO 8601, booleans `true`/`false`, a MULTI_SELECT's options joined by `, `), the owner by
 * email, a ONE relation by the linked record's title (its id when the list did not expand it).
 */
export function exportText(record: RecordItem, column: Column, members: Member[]): string {
  const value = recordValue(record, column.key);
  if (column.key === 'ownerId' && value) return members.find((m) => m.id === value)?.email ?? String(value);
  if (column.relatesTo && value) return linkedRecord(record, column)?.title ?? String(value);
  return valueText(value);
}

/** The text an editor starts from: the stored value as it would be typed. */
export function editText(record: RecordItem, column: Column): string {
  return valueText(recordValue(record, column.key));
}

/**
 * The `records.update` input that sets one cell to the typed text: an empty text clears the
 * value (`null`); a MULTI_SELECT is split at commas. Other values go as typed, for the server
 * to read and judge (docs/api.md, "Values from no-code tools").
 */
export function updateInput(record: RecordItem, column: Column, text: string): Inputs['records']['update'] {
  if (column.field) {
    const value =
      text.trim() === '' ? null : column.field.type === 'MULTI_SELECT' ? optionsFromText(text) : text;
    return { id: record.id, data: { [column.field.key]: value } };
  }
  if (column.key === 'title') return { id: record.id, title: text };
  const key = column.key as 'email' | 'phone';
  return { id: record.id, [key]: text.trim() === '' ? null : text };
}

export function sameDefinition(a: ViewDefinition, b: ViewDefinition): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
