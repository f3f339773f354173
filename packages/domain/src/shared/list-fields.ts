import { type FilterFieldKind, filterKindOfFieldType, filterOperatorsByKind } from '@crm/constants';
import type { Executor } from '@crm/db';
import type { FieldDefinition } from '@crm/db/schema';
import { and, eq, gt, gte, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { checkFieldValue, storedFieldValue } from './custom-values.ts';
import {
  conditionError,
  type FilterLeaf,
  type FilterOp,
  MAX_FILTER_TEXT,
  MAX_IN_VALUES,
} from './list-filter.ts';
import { isInstant, isRealDate, readQueryInstant } from './schemas.ts';
import { likePattern } from './search-text.ts';

/**
 * What a list can filter and sort on: a column, or a value inside a jsonb `data` column.
 * `kind` (`@crm/constants`, one table with the web app's filter form) decides the operators,
 * how values are read and checked, and the SQL; `json` is a value of free JSON (deals' `data`):
 * no type to check against, compared as JSON.
 */
export type FieldKind = FilterFieldKind;

export interface ListField {
  kind: FieldKind;
  /** A column, or a jsonb expression (`data -> 'score'`) when `json` is set. */
  expr: PgColumn | SQL;
  json: boolean;
  nullable: boolean;
  /** SELECT and MULTI_SELECT options, enum values. */
  options?: readonly string[];
  /** The custom field, whose own checks judge values. */
  definition?: FieldDefinition;
  /**
   * True when the field has a value, if that is not `expr is not null`: `data ? 'score'`, the
   * predicate of the field's partial index, which a query must state for the index to serve.
   */
  present?: SQL;
  /** The row's value in the form a cursor keeps (instants as ISO strings, JSON as is). */
  valueOf(row: Record<string, unknown>): unknown;
  /**
   * The SQL of a condition on a field that is not a value of the row (a relation's links,
   * a field of the linked record), when it writes its own: the operator was checked first.
   */
  condition?(leaf: FilterLeaf, negated: boolean): SQL;
  /**
   * Reads what the condition of `leaf` needs to know before its SQL is written (a filter
   * across a relation asks how many linked records match), once per request.
   */
  prepare?(db: Executor, leaf: FilterLeaf): Promise<void>;
}

/** A column of the table, read from the row under `prop`. */
export function columnField(
  column: PgColumn,
  prop: string,
  kind: FieldKind,
  options: { nullable?: boolean; values?: readonly string[] } = {},
): ListField {
  return {
    kind,
    expr: column,
    json: false,
    nullable: options.nullable ?? !column.notNull,
    ...(options.values ? { options: options.values } : {}),
    valueOf: (row) => {
      const value = row[prop];
      return value instanceof Date ? value.toISOString() : (value ?? null);
    },
  };
}

const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/**
 * A custom field of records, inside `data`. The key is written into the SQL as a literal, not
 * a parameter: the field's index is on `data -> '<key>'` with the predicate `data ? '<key>'`,
 * and PostgreSQL matches an index only to the same constant. Field keys are letters, digits
 * and `_` (checked again here), so the literal needs no escaping.
 */
export function customField(data: PgColumn, definition: FieldDefinition): ListField {
  if (!FIELD_KEY.test(definition.key)) throw new Error(`not a field key: ${definition.key}`);
  const key = sql.raw(`'${definition.key}'`);
  return {
    kind: filterKindOfFieldType[definition.type],
    expr: sql`(${data} -> ${key})`,
    json: true,
    nullable: true,
    ...(definition.options ? { options: definition.options } : {}),
    definition,
    present: sql`(${data} ? ${key})`,
    valueOf: (row) => (row.data as Record<string, unknown>)[definition.key] ?? null,
  };
}

/** A key of a free JSON `data` object (deals): JSON null counts as no value. */
export function jsonField(data: PgColumn, key: string): ListField {
  return {
    kind: 'json',
    expr: sql`nullif(${data} -> ${key}::text, 'null'::jsonb)`,
    json: true,
    nullable: true,
    valueOf: (row) => (row.data as Record<string, unknown>)[key] ?? null,
  };
}

/**
 * The SQL of one condition. `negated` conditions (`ne`, or under a `not`) also match rows
 * where the field is empty: `not coalesce(condition, false)`, so that a filter and its `not`
 * always split the rows in two.
 */
export function conditionSql(field: ListField, leaf: FilterLeaf, negated: boolean): SQL {
  const ops: readonly FilterOp[] = filterOperatorsByKind[field.kind];
  if (!ops.includes(leaf.op)) {
    throw conditionError(leaf, `not an operator of this field; use one of ${ops.join(', ')}`);
  }
  if (field.condition) return field.condition(leaf, negated);
  if (leaf.op === 'empty') return emptySql(field, readBoolean(leaf) !== negated);
  const op = leaf.op === 'ne' ? 'eq' : leaf.op;
  const positive = comparisonSql(field, leaf, op);
  const negate = negated !== (leaf.op === 'ne');
  if (negate) return sql`not coalesce(${positive}, false)`;
  // `data ? 'key'` is implied, but stated so that the field's partial index can serve.
  return field.present ? (and(field.present, positive) as SQL) : positive;
}

function comparisonSql(field: ListField, leaf: FilterLeaf, op: Exclude<FilterOp, 'ne' | 'empty'>): SQL {
  const e = field.expr;
  if (op === 'contains') {
    const text = readText(leaf, leaf.value);
    const value = field.json ? sql`(${e} #>> '{}')` : e;
    const typed = field.kind === 'json' ? sql`jsonb_typeof(${e}) = 'string' and ` : sql``;
    return sql`(${typed}${value} ilike ${likePattern(text)})`;
  }
  if (op === 'in') {
    const values = readList(leaf).map((v) => readValue(field, leaf, v));
    const list = (of: unknown[]) =>
      sql.join(
        of.map((v) => sql`${v}`),
        sql`, `,
      );
    if (field.kind === 'multi') return sql`(${e} ?| array[${list(values)}]::text[])`;
    if (field.kind === 'email') {
      const text = field.json ? sql`(${e} #>> '{}')` : e;
      return sql`lower(${text}) in (${sql.join(
        values.map((v) => sql`lower(${v})`),
        sql`, `,
      )})`;
    }
    if (!field.json) return inArray(e as PgColumn, values);
    const json = values.flat().map((v) => sql`${JSON.stringify(v)}::jsonb`);
    return sql`${e} in (${sql.join(json, sql`, `)})`;
  }
  const value = readValue(field, leaf, leaf.value);
  if (op === 'eq') return equalSql(field, value);
  if (field.kind === 'json') {
    // Free JSON orders every number before every string; a range stays within its value's type.
    const type = typeof value === 'number' ? 'number' : 'string';
    return sql`(jsonb_typeof(${e}) = ${type} and ${rangeSql(field, op, value)})`;
  }
  return rangeSql(field, op, value);
}

function rangeSql(field: ListField, op: 'gt' | 'gte' | 'lt' | 'lte', value: unknown): SQL {
  if (field.json) {
    const bound = sql`${JSON.stringify(value)}::jsonb`;
    const sign = { gt: sql`>`, gte: sql`>=`, lt: sql`<`, lte: sql`<=` }[op];
    return sql`${field.expr} ${sign} ${bound}`;
  }
  const column = field.expr as PgColumn;
  return { gt, gte, lt, lte }[op](column, value);
}

function equalSql(field: ListField, value: unknown): SQL {
  const e = field.expr;
  if (field.kind === 'multi') return sql`(${e} @> ${JSON.stringify([value])}::jsonb)`;
  if (field.kind === 'email') {
    const text = field.json ? sql`(${e} #>> '{}')` : e;
    return sql`lower(${text}) = lower(${value as string})`;
  }
  if (field.kind === 'json' && Array.isArray(value)) {
    // A query-string value that reads as a number or a boolean also matches it written as text.
    return sql`${e} in (${sql.join(
      value.map((v) => sql`${JSON.stringify(v)}::jsonb`),
      sql`, `,
    )})`;
  }
  if (field.json) return sql`${e} = ${JSON.stringify(value)}::jsonb`;
  return eq(e as PgColumn, value);
}

function emptySql(field: ListField, empty: boolean): SQL {
  const e = field.expr;
  const blank =
    field.kind === 'text' || field.kind === 'email'
      ? field.json
        ? sql`(${e} #>> '{}') = ''`
        : sql`${e} = ''`
      : field.kind === 'multi'
        ? sql`${e} = '[]'::jsonb`
        : field.kind === 'json'
          ? sql`${e} in ('""'::jsonb, '[]'::jsonb, '{}'::jsonb)`
          : undefined;
  const missing = field.present ? sql`not ${field.present}` : isNull(e);
  const isEmpty = blank ? (or(missing, blank) as SQL) : missing;
  if (empty) return isEmpty;
  if (!blank) return field.present ?? sql`${e} is not null`;
  return sql`not coalesce(${isEmpty}, false)`;
}

export function readBoolean(leaf: FilterLeaf): boolean {
  const v = leaf.value;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw conditionError(leaf, 'must be true or false');
}

function readText(leaf: FilterLeaf, value: unknown): string {
  if (typeof value !== 'string') throw conditionError(leaf, 'must be text');
  if (value.length > MAX_FILTER_TEXT)
    throw conditionError(leaf, `must be at most ${MAX_FILTER_TEXT} characters`);
  return value;
}

/** `in`: a JSON list, or in a query string values separated by commas. */
export function readList(leaf: FilterLeaf): unknown[] {
  const v = leaf.value;
  const list = leaf.fromQuery && typeof v === 'string' ? v.split(',') : v;
  if (!Array.isArray(list) || list.length === 0) {
    throw conditionError(leaf, leaf.fromQuery ? 'must be values separated by commas' : 'must be a list');
  }
  if (list.length > MAX_IN_VALUES) throw conditionError(leaf, `must hold at most ${MAX_IN_VALUES} values`);
  return list;
}

const DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;
const emailSchema = z.email();

/**
 * A value checked against the field's type and turned into what the SQL compares: custom
 * fields through the checks of their writes (a NUMBER takes `"42"`, a DATE an instant …),
 * instants as Dates.
 */
function readValue(field: ListField, leaf: FilterLeaf, value: unknown): unknown {
  if (value === null || value === undefined) {
    throw conditionError(leaf, value === null ? 'cannot be null; use the operator empty' : 'needs a value');
  }
  if (field.definition) {
    if (field.kind === 'multi') {
      if (typeof value === 'string' && field.options?.includes(value)) return value;
      throw conditionError(leaf, `must be one of: ${field.options?.join(', ')}`);
    }
    const stored = storedFieldValue(field.definition, value);
    const problem = checkFieldValue(field.definition, stored);
    if (problem) throw conditionError(leaf, problem);
    return stored;
  }
  switch (field.kind) {
    case 'text':
    case 'id':
      return readText(leaf, value);
    case 'email': {
      const text = readText(leaf, value);
      if (!emailSchema.safeParse(text).success) throw conditionError(leaf, 'must be an email address');
      return text;
    }
    case 'instant': {
      const instant =
        typeof value !== 'string'
          ? null
          : leaf.fromQuery
            ? readQueryInstant(value)
            : isInstant(value) && value;
      if (!instant) throw conditionError(leaf, 'must be an ISO 8601 instant such as 2026-11-21T09:30:00Z');
      return new Date(instant);
    }
    case 'number': {
      const n = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw conditionError(leaf, 'must be a number');
      return n;
    }
    case 'date': {
      const day = typeof value === 'string' && isInstant(value) ? value.slice(0, 10) : value;
      if (typeof day !== 'string' || !isRealDate(day))
        throw conditionError(leaf, 'must be a date YYYY-MM-DD');
      return day;
    }
    case 'enum':
      if (typeof value === 'string' && field.options?.includes(value)) return value;
      throw conditionError(leaf, `must be one of: ${field.options?.join(', ')}`);
    case 'json':
      return readJson(leaf, value);
    default:
      throw conditionError(leaf, 'cannot be compared');
  }
}

/**
 * A value of free JSON. In a query string a decimal is read as a number and `true`/`false` as
 * a boolean, and equality matches either that or the text as sent; ranges compare numbers
 * with numbers and text with text.
 */
function readJson(leaf: FilterLeaf, value: unknown): unknown {
  const range = ['gt', 'gte', 'lt', 'lte'].includes(leaf.op);
  if (typeof value === 'string') {
    readText(leaf, value);
    if (!leaf.fromQuery) return value;
    const read = DECIMAL.test(value)
      ? Number(value)
      : /^(true|false)$/.test(value)
        ? value === 'true'
        : value;
    if (range) return typeof read === 'boolean' ? value : read;
    return read === value ? value : [read, value];
  }
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean' && !range) return value;
  throw conditionError(leaf, range ? 'must be a number or text' : 'must be text, a number or a boolean');
}
