import type { FieldDefinition } from '@crm/db/schema';
import { invalid } from '../shared/errors.ts';

/** A plain (not RELATION) field's definition as stored: key, label, type, and options when it has them. */
export function normalizeField(
  field: Pick<FieldDefinition, 'key' | 'label' | 'type' | 'options'>,
): FieldDefinition {
  return field.options
    ? { key: field.key, label: field.label, type: field.type, options: field.options }
    : { key: field.key, label: field.label, type: field.type };
}

/** SELECT and MULTI_SELECT fields need options; no other type may have them. */
export function assertFieldOptions(field: { type: string; options?: string[] | undefined }) {
  const needsOptions = field.type === 'SELECT' || field.type === 'MULTI_SELECT';
  if (needsOptions && !field.options?.length)
    throw invalid('options', `is required for ${field.type} fields`);
  if (!needsOptions && field.options)
    throw invalid('options', 'only SELECT and MULTI_SELECT fields have options');
}
