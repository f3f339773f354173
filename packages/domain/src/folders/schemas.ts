import { fieldTypes, folderTypes } from '@crm/db/schema';
import { z } from 'zod';
import { idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';

export const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

const fieldKey = z
  .string()
  .regex(FIELD_KEY, 'must start with a letter and hold only letters, digits and _ (at most 63)')
  .meta({ description: 'Key of the value inside record `data`.', example: 'company' });

const optionList = z
  .array(nonBlankText(200))
  .min(1)
  .max(500)
  .refine((options) => new Set(options).size === options.length, 'options must be unique')
  .meta({ uniqueItems: true });

export const fieldDefinitionInput = z.strictObject({
  key: fieldKey,
  label: nonBlankText(200),
  type: z.enum(fieldTypes),
  options: optionList
    .optional()
    .meta({ description: 'Allowed values; required for SELECT and MULTI_SELECT.' }),
});

export const fieldChangeInput = z.strictObject({
  label: nonBlankText(200).optional(),
  type: z.enum(fieldTypes).optional(),
  options: optionList.optional(),
});

export const fieldDefinitionOutput = z
  .object({
    key: z.string(),
    label: z.string(),
    type: z.enum(fieldTypes),
    options: z.array(z.string()).optional(),
  })
  .meta({ id: 'FieldDefinition' });

export const folderOutput = z
  .object({
    id: z.string().meta({ example: 'fld_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    name: z.string(),
    type: z.enum(folderTypes),
    fields: z.array(fieldDefinitionOutput),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'Folder' });

export type FolderOutput = z.infer<typeof folderOutput>;

export const createFolderInput = z.strictObject({
  name: nonBlankText(200),
  fields: z
    .array(fieldDefinitionInput)
    .max(200)
    .optional()
    .refine(
      (fields) => !fields || new Set(fields.map((f) => f.key)).size === fields.length,
      'field keys must be unique',
    )
    .meta({ description: 'Up to 200 field definitions; no key twice.' }),
});

export const updateFolderInput = z.strictObject({
  id: idParam('Folder id'),
  name: nonBlankText(200),
});

export const folderIdInput = z.strictObject({ id: idParam('Folder id') });

export const addFieldInput = z.strictObject({
  id: idParam('Folder id'),
  key: fieldKey,
  label: nonBlankText(200),
  type: z.enum(fieldTypes),
  options: optionList
    .optional()
    .meta({ description: 'Allowed values; required for SELECT and MULTI_SELECT.' }),
});

export const changeFieldInput = fieldChangeInput.extend({
  id: idParam('Folder id'),
  key: z.string().max(100).meta({ description: 'Key of the field to change' }),
});

export const removeFieldInput = z.strictObject({
  id: idParam('Folder id'),
  key: z
    .string()
    .max(100)
    .meta({ description: 'Key of the field to remove; its values are removed from the records' }),
});
