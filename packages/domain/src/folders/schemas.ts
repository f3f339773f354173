import { fieldTypes, folderTypes, relationCardinalities } from '@crm/db/schema';
import { z } from 'zod';
import { FIELD_KEY, idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';

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

/** Most labels a relation may define, and the longest label. */
const MAX_LINK_LABELS = 50;
export const MAX_LINK_LABEL = 100;

const labelList = z
  .array(nonBlankText(MAX_LINK_LABEL))
  .min(1)
  .max(MAX_LINK_LABELS)
  .refine((labels) => new Set(labels).size === labels.length, 'labels must be unique')
  .meta({
    uniqueItems: true,
    description: 'The labels a link may carry ("Decision maker", "Billing"); without them links carry none.',
  });

const cardinality = z
  .enum(relationCardinalities)
  .meta({ description: '`ONE`: at most one linked record, kept in `data`; `MANY`: any number, as links.' });

/** What a RELATION field links to, as a request gives it. */
const relationInput = z
  .strictObject({
    folderId: z.string().max(200).meta({ description: 'The folder of the linked records (this folder too)' }),
    cardinality,
    labels: labelList.optional(),
  })
  .meta({ description: 'Required for RELATION fields, refused on any other.' });

/** The paired field a RELATION field may create on its target folder, in the same change. */
const inverseInput = z
  .strictObject({
    key: fieldKey,
    label: nonBlankText(200),
    cardinality,
  })
  .meta({
    description:
      'Creates the paired field on the target folder in the same change: linking A to B through this field shows A in B’s inverse field, and the reverse.',
  });

export const fieldDefinitionInput = z.strictObject({
  key: fieldKey,
  label: nonBlankText(200),
  type: z.enum(fieldTypes),
  options: optionList
    .optional()
    .meta({ description: 'Allowed values; required for SELECT and MULTI_SELECT.' }),
  relation: relationInput.optional(),
  inverse: inverseInput.optional(),
});

const fieldChangeInput = z.strictObject({
  label: nonBlankText(200).optional(),
  type: z.enum(fieldTypes).optional(),
  options: optionList.optional(),
  relation: z.strictObject({ labels: labelList.nullable() }).optional().meta({
    description:
      'A RELATION field’s labels (null: none), changed on both fields of a pair. Links keep a label taken off the list.',
  }),
});

const relationOutput = z
  .object({
    folderId: z.string(),
    cardinality: z.enum(relationCardinalities),
    labels: z.array(z.string()).optional(),
    inverseKey: z.string().nullable().meta({
      description: 'The paired field of the target folder, or null when the relation has no inverse',
    }),
  })
  .meta({ id: 'Relation' });

export const fieldDefinitionOutput = z
  .object({
    key: z.string(),
    label: z.string(),
    type: z.enum(fieldTypes),
    options: z.array(z.string()).optional(),
    relation: relationOutput.optional().meta({ description: 'For RELATION fields: what they link to' }),
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

export const addFieldInput = fieldDefinitionInput.extend({ id: idParam('Folder id') });

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
  force: z.enum(['true', 'false']).optional().meta({
    description:
      'A RELATION field that still has links is only removed with `true`: then its inverse and every link go too, each with a `record.unlinked` event.',
  }),
});
