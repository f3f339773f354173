import { z } from 'zod';
import { MAX_LINK_LABEL } from '../folders/schemas.ts';
import { recordOutput } from '../record-model/schemas.ts';
import { idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';

const fieldName = z
  .string()
  .max(100)
  .meta({ description: 'Key of a RELATION field of the record’s folder', example: 'company' });

/** A record a link names: its id, or `{ "email" }` / `{ "title" }` naming one live record of the field's folder. */
const linkTarget = z
  .union([
    z.string().max(200),
    z.strictObject({ email: z.string().max(320) }),
    z.strictObject({ title: z.string().max(500) }),
  ])
  .meta({
    description:
      'The record to link: its id (`rec_…`), or `{ "email": … }` / `{ "title": … }` naming the one live record of the field’s folder that has it.',
  });

const label = nonBlankText(MAX_LINK_LABEL)
  .nullable()
  .meta({ description: 'One of the field’s `labels`; null or left out: none. Linking again changes it.' });

export const linkRecordInput = z.strictObject({
  id: idParam('Record id'),
  field: fieldName,
  to: linkTarget,
  label: label.optional(),
});

export const linkPathInput = z.strictObject({
  id: idParam('Record id'),
  field: z.string().max(100).meta({ description: 'Key of the RELATION field' }),
  to: idParam('Id of the linked record'),
});

export const linkOutput = z
  .object({
    from: z.string().meta({
      description: 'The record the link was read or made from',
      example: 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5',
    }),
    field: z.string().meta({ description: 'Its RELATION field' }),
    to: z.string().meta({ description: 'The linked record' }),
    label: z.string().nullable(),
    createdAt: instantOutput(),
  })
  .meta({ id: 'Link' });

export type LinkOutput = z.infer<typeof linkOutput>;

export const unlinkedOutput = z
  .object({ from: z.string(), field: z.string(), to: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedLink' });

export const batchLinkItem = z.strictObject({
  from: z.string().max(200).meta({ description: 'The record to link from (`rec_…`)' }),
  field: fieldName,
  to: linkTarget,
  label: label.optional(),
});

export const batchUnlinkItem = z.strictObject({
  from: z.string().max(200).meta({ description: 'The record to unlink from (`rec_…`)' }),
  field: fieldName,
  to: z.string().max(200).meta({ description: 'The linked record (`rec_…`)' }),
});

/** A record read through a link: the record and the link's own facts. */
export const linkedRecordOutput = recordOutput
  .extend({
    link: z
      .object({
        label: z.string().nullable(),
        createdAt: instantOutput(),
      })
      .meta({ description: 'The link that leads to this record' }),
  })
  .meta({ id: 'LinkedRecord' });
