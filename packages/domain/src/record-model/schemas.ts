import { z } from 'zod';
import { filterNode, filterParam } from '../shared/list-filter.ts';
import { countParam } from '../shared/list-query.ts';
import { sortParam } from '../shared/list-sort.ts';
import { MAX_PAGE_SIZE, pagingInput } from '../shared/paging.ts';
import { FIELD_KEY, idParam, instantInput, instantOutput, instantQueryInput } from '../shared/schemas.ts';
import { recordEmail, recordPhone, recordTitle, recordValues } from './record-values.ts';

/** Most fields one `expand` names. */
export const MAX_EXPAND = 5;

/** `expand=<key>[,<key>]`: ONE fields whose records to add under `expanded` (docs/api.md, "Relations"). */
const expandParam = () =>
  z
    .string()
    .max(400)
    .meta({
      description: `ONE relation fields whose linked records to add under \`expanded\`, comma-separated (at most ${MAX_EXPAND}, one level deep).`,
      example: 'company',
    });

const customValues = z
  .record(z.string(), z.unknown())
  .meta({ description: 'Custom field values keyed by the folder field `key`.' });

type ExpandedSchema = z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodNullable<z.ZodType<RecordOutput>>>>;
let expandedSchema: ExpandedSchema | undefined;

export const recordOutput = z
  .object({
    id: z.string().meta({ example: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    folderId: z.string(),
    title: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    ownerId: z.string().nullable(),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
    trashedAt: instantOutput().nullable().meta({ description: 'Set while the record is in Trash.' }),
    get expanded(): ExpandedSchema {
      // Made once: the document generator knows a schema by its identity.
      expandedSchema ??= z.record(z.string(), recordOutput.nullable()).optional().meta({
        id: 'ExpandedRecords',
        description:
          'With `expand=<key>,…`: the record each ONE relation field named links to, or null (docs/api.md, "Relations").',
      });
      return expandedSchema;
    },
  })
  .meta({ id: 'Record' });

export interface RecordOutput {
  id: string;
  folderId: string;
  title: string;
  email: string | null;
  phone: string | null;
  data: Record<string, unknown>;
  ownerId: string | null;
  createdAt: string;
  updatedAt: string;
  trashedAt: string | null;
  expanded?: Record<string, RecordOutput | null>;
}

export const createRecordInput = z.strictObject({
  folderId: z.string().max(200).meta({ description: 'Folder that holds the record' }),
  // The record's own values, as the web app's import preview checks them too.
  ...recordValues.shape,
  data: customValues.optional(),
  ownerId: z.string().max(200).nullish().meta({ description: 'A user (usr_…) of the workspace' }),
  upsert: z.enum(['email']).optional().meta({
    description:
      'With `email`: update the live record of the folder with that email instead of creating one (200).',
  }),
});

export const updateRecordInput = z.strictObject({
  id: idParam('Record id'),
  title: recordTitle.optional(),
  email: recordEmail.nullish(),
  phone: recordPhone.nullish(),
  data: customValues.optional().meta({
    description: 'Merged into the stored values: keys given replace, a key given as null is removed.',
  }),
  ownerId: z.string().max(200).nullish(),
});

export const recordIdInput = z.strictObject({ id: idParam('Record id') });

/** `GET /records/{id}`: the record, with the records its ONE relation fields link to when asked. */
export const getRecordInput = z.strictObject({ id: idParam('Record id'), expand: expandParam().optional() });

export const findRecordsInput = z.strictObject({
  folderId: z.string().max(200).optional().meta({ description: 'Only records of this folder' }),
  search: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Case-insensitive substring of title, email, phone or a TEXT value' }),
  q: z.string().max(200).optional().meta({ description: 'Same as `search`' }),
  updatedSince: instantQueryInput().optional().meta({
    description:
      'Only records changed at or after this instant. An offset whose `+` was sent unencoded (read as a space, `2026-11-22T10:00:00 01:00`) means `+01:00`.',
  }),
  trashed: z.enum(['true', 'false']).optional().meta({ description: '`true` lists only the Trash' }),
  filter: filterParam().optional(),
  expand: expandParam().optional(),
  sort: sortParam(
    ['createdAt', 'updatedAt', 'title'],
    FIELD_KEY.source.slice(1, -1),
    '`createdAt`, `updatedAt`, `title` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; records without a value come last.',
  ),
  count: countParam('records'),
  ...pagingInput,
});

/** `POST /records/query`: the list's parameters as JSON, the filter a tree of `and`, `or` and `not`. */
export const queryRecordsInput = z.strictObject({
  filter: filterNode.optional().meta({
    description:
      'A condition `{ field, op, value }` or a group `{ and: [...] }`, `{ or: [...] }`, `{ not: {...} }`; values as JSON of the field’s type. At most 6 levels and 100 nodes.',
  }),
  sort: findRecordsInput.shape.sort,
  count: z.boolean().optional().meta({ description: '`true` adds `meta.total`.' }),
  folderId: findRecordsInput.shape.folderId,
  search: findRecordsInput.shape.search,
  q: findRecordsInput.shape.q,
  updatedSince: instantInput()
    .optional()
    .meta({ description: 'Only records changed at or after this instant' }),
  trashed: z.boolean().optional().meta({ description: '`true` lists only the Trash' }),
  page: z
    .number()
    .int()
    .min(1, 'must be between 1 and 1000000')
    .max(1_000_000, 'must be between 1 and 1000000')
    .optional(),
  pageSize: z
    .number()
    .int()
    .min(1, `must be between 1 and ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `must be between 1 and ${MAX_PAGE_SIZE}`)
    .optional(),
  cursor: pagingInput.cursor,
  expand: expandParam().optional(),
});

/** `GET /records/{id}/related/{field}`: the list's parameters, the folder being the field's. */
export const findRelatedInput = z.strictObject({
  id: idParam('Record id'),
  field: z.string().max(100).meta({ description: 'Key of a RELATION field of the record’s folder' }),
  search: findRecordsInput.shape.search,
  q: findRecordsInput.shape.q,
  updatedSince: findRecordsInput.shape.updatedSince,
  filter: findRecordsInput.shape.filter,
  sort: findRecordsInput.shape.sort,
  count: findRecordsInput.shape.count,
  expand: findRecordsInput.shape.expand,
  ...pagingInput,
});
