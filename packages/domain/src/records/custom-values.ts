import type { FieldDefinition } from '@crm/db/schema';
import { z } from 'zod';
import { DomainError, type ErrorDetail } from '../shared/errors.ts';
import { isRealDate } from '../shared/schemas.ts';

const MAX_TEXT = 10_000;
const emailSchema = z.email();

/** Why `value` is not valid for `field`, or null when it is. `null` values are handled by the caller. */
export function checkFieldValue(field: FieldDefinition, value: unknown): string | null {
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
 * Checks custom values against the folder's fields (contract §4) and returns the values to
 * store. On create `null` values are dropped; on update the caller merges, and a `null`
 * removes the key. Every problem is reported at once, each with its `data.<key>` path.
 */
export function validateCustomValues(
  fields: FieldDefinition[],
  data: Record<string, unknown>,
): Record<string, unknown> {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const details: ErrorDetail[] = [];
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const field = byKey.get(key);
    if (!field) {
      details.push({ path: `data.${key}`, message: `is not a field of this folder` });
      continue;
    }
    if (value === null) {
      clean[key] = null;
      continue;
    }
    const problem = checkFieldValue(field, value);
    if (problem) details.push({ path: `data.${key}`, message: problem });
    else clean[key] = value;
  }
  if (details.length > 0) {
    const message = details.map((d) => `${d.path} ${d.message}`).join('; ');
    throw new DomainError('VALIDATION_FAILED', `Invalid custom values: ${message}`, { details });
  }
  return clean;
}
