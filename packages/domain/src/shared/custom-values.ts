import type { FieldDefinition } from '@crm/db/schema';
import { z } from 'zod';
import { DomainError, type ErrorDetail } from './errors.ts';
import { missing } from './missing.ts';
import { isInstant, isRealDate } from './schemas.ts';

const MAX_TEXT = 10_000;
const emailSchema = z.email();

/** What the checks of a value need of its field. */
export type FieldRule = Pick<FieldDefinition, 'type' | 'options'> & {
  relation?: Pick<NonNullable<FieldDefinition['relation']>, 'cardinality'> | undefined;
};

const RECORD_ID = /^rec_[0-9a-z]{26}$/;

/**
 * A ONE relation value as a write may give it (docs/api.md, "Relations"): the id of the linked
 * record, or `{ "email": … }` or `{ "title": … }` naming it; null when it is not one of those.
 */
export function relationReference(value: unknown): { by: 'id' | 'email' | 'title'; value: string } | null {
  if (typeof value === 'string') return RECORD_ID.test(value) ? { by: 'id', value } : null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  if (entries.length !== 1) return null;
  const [by, given] = entries[0] ?? missing('entries[0]');
  if ((by !== 'email' && by !== 'title') || typeof given !== 'string') return null;
  const text = given.trim();
  return text.length > 0 && text.length <= 500 ? { by, value: text } : null;
}

/** Why `value` is not valid for `field`, or null when it is. `null` values are handled by the caller. */
export function checkFieldValue(field: FieldRule, value: unknown): string | null {
  switch (field.type) {
    case 'TEXT':
      return typeof value === 'string' && value.length <= MAX_TEXT
        ? null
        : `must be text of at most ${MAX_TEXT} characters`;
    case 'NUMBER':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'BOOLEAN':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'DATE':
      return typeof value === 'string' && isRealDate(value) ? null : 'must be a date YYYY-MM-DD';
    case 'EMAIL':
      return typeof value === 'string' && emailSchema.safeParse(value).success
        ? null
        : 'must be an email address';
    case 'URL':
      return typeof value === 'string' && isWebUrl(value) ? null : 'must be an http or https URL';
    case 'SELECT':
      return typeof value === 'string' && (field.options ?? []).includes(value)
        ? null
        : `must be one of: ${(field.options ?? []).join(', ')}`;
    case 'RELATION':
      if (field.relation?.cardinality === 'MANY') {
        return 'is a MANY relation: its links are not kept in data; use POST /api/v1/records/{id}/links';
      }
      return relationReference(value)
        ? null
        : 'must be the id of a record (rec_…), { "email": "…" } or { "title": "…" }';
    case 'MULTI_SELECT': {
      const options = field.options ?? [];
      const ok =
        Array.isArray(value) &&
        value.every((v) => typeof v === 'string' && options.includes(v)) &&
        new Set(value).size === value.length;
      return ok ? null : `must be a list of distinct values from: ${options.join(', ')}`;
    }
  }
}

/** A plain decimal: optional sign, digits, optional fraction. No exponent, spaces or separators. */
const DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;
const TRUE_OR_FALSE = /^(?:true|false)$/i;

/**
 * The stored form of a value as sent. No-code tools (n8n, Make, Zapier) often send every
 * value as a string, so a NUMBER takes a plain decimal string (`"12.5"` is stored as 12.5), a
 * BOOLEAN `"true"` or `"false"` in any letter case, and a DATE an ISO 8601 instant, of which
 * the date as written before the `T` is kept (`2026-11-22T23:30:00-05:00` is `2026-11-22`).
 * Anything else is returned as it came, for `checkFieldValue` to judge.
 */
export function storedFieldValue(field: FieldRule, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (field.type) {
    case 'NUMBER':
      return DECIMAL.test(value) ? Number(value) : value;
    case 'BOOLEAN':
      return TRUE_OR_FALSE.test(value) ? value.toLowerCase() === 'true' : value;
    case 'DATE':
      return isInstant(value) ? value.slice(0, 10) : value;
    default:
      return value;
  }
}

function isWebUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * What is wrong with custom values for the folder's fields (docs/api.md, "Records"), each
 * problem with its `data.<key>` path: a key that is no field of the folder, or a value that
 * does not fit its field in its stored form (`storedFieldValue`). `null` values are fine (they
 * remove a key). The web app's import preview runs this very check
 * (`@crm/domain/record-values`).
 */
export function customValueProblems(fields: (FieldRule & { key: string })[], data: Record<string, unknown>) {
  return checkCustomValues(fields, data).details;
}

/**
 * Checks custom values against the folder's fields (`customValueProblems`) and returns the values
 * to store, in their stored form (`storedFieldValue`). On create `null` values are dropped; on
 * update the caller merges, and a `null` removes the key. Every problem is reported at once.
 */
export function validateCustomValues(
  fields: (FieldRule & { key: string })[],
  data: Record<string, unknown>,
): Record<string, unknown> {
  const { details, stored } = checkCustomValues(fields, data);
  if (details.length > 0) {
    const message = details.map((d) => `${d.path} ${d.message}`).join('; ');
    throw new DomainError('VALIDATION_FAILED', `Invalid custom values: ${message}`, { details });
  }
  return stored;
}

/** Each value in its stored form, converted once, and the problems of those that do not fit. */
function checkCustomValues(fields: (FieldRule & { key: string })[], data: Record<string, unknown>) {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const details: ErrorDetail[] = [];
  const stored: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const field = byKey.get(key);
    if (!field) {
      details.push({ path: `data.${key}`, message: `is not a field of this folder` });
    } else if (value === null) {
      stored[key] = null;
    } else {
      stored[key] = storedFieldValue(field, value);
      const problem = checkFieldValue(field, stored[key]);
      if (problem) details.push({ path: `data.${key}`, message: problem });
    }
  }
  return { details, stored };
}
