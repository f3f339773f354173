import { recordColumns, savedViewLimits } from '@crm/constants';
import { z } from 'zod';
import { FILTER_OPS } from '../shared/list-filter.ts';
import { idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';

/** A filter of a view: one condition of the list's query string, `filter[<field>][<op>]=<value>`. */
const viewFilter = z.strictObject({
  field: z.string().max(200),
  op: z.enum(FILTER_OPS),
  value: z
    .string()
    .max(10_000)
    .meta({ description: 'As the query string carries it: `in` comma-separated, `empty` true or false.' }),
});

export const savedViewDefinition = z
  .strictObject({
    columns: z
      .array(z.string().max(200))
      .min(1, 'must show at least one column')
      .max(savedViewLimits.columns, `must hold at most ${savedViewLimits.columns} columns`)
      .meta({ description: `Shown in this order: ${Object.keys(recordColumns).join(', ')} or data.<key>.` }),
    sort: z.string().max(200).nullable().meta({
      description: 'As the list takes it (`title`, `-updatedAt`, `data.score`); null for newest first.',
    }),
    filters: z
      .array(viewFilter)
      .max(savedViewLimits.filters, `must hold at most ${savedViewLimits.filters} filters`)
      .meta({ description: 'ANDed, each as the list query string takes it.' }),
  })
  .meta({ id: 'SavedViewDefinition' });

export const savedViewOutput = z
  .object({
    id: z.string(),
    folderId: z.string(),
    name: z.string(),
    definition: savedViewDefinition,
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'SavedView' });

export type SavedViewOutput = z.infer<typeof savedViewOutput>;

const viewName = nonBlankText(savedViewLimits.name);

export const findSavedViewsInput = z.strictObject({ folderId: z.string().max(200) });
export const createSavedViewInput = z.strictObject({
  folderId: z.string().max(200),
  name: viewName,
  definition: savedViewDefinition,
});
export const updateSavedViewInput = z.strictObject({
  id: idParam('Saved view id'),
  name: viewName.optional(),
  definition: savedViewDefinition.optional(),
});
export const savedViewIdInput = z.strictObject({ id: idParam('Saved view id') });
