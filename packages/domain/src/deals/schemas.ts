import { z } from 'zod';
import { filterParam } from '../shared/list-filter.ts';
import { countParam } from '../shared/list-query.ts';
import { sortParam } from '../shared/list-sort.ts';
import { pagingInput } from '../shared/paging.ts';
import { dateOnly, idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';

const CURRENCIES = Intl.supportedValuesOf('currency');
const MAX_AMOUNT = 999_999_999_999.99;

/**
 * At most 2 decimals, judged as the decimal the client wrote: the number is the double nearest
 * to its cents over 100. Exact up to MAX_AMOUNT, where a tolerance on `n * 100` is not (its
 * rounding error passes 1e-6 from about 10^8 on, which refused 275104796911.35).
 */
const hasAtMostTwoDecimals = (n: number) => Math.round(n * 100) / 100 === n;

/**
 * A decimal ≥ 0 with at most 2 decimals. The bounds are stated in the document, and a value
 * out of them is refused for that alone (`abort`, one problem reported); the 2 decimals only in the description, since
 * `multipleOf: 0.01` is judged in binary floating point by most validators, which then refuse
 * amounts such as 19.99 (docs/api.md, "Limits in the document").
 */
const amount = z
  .number()
  .min(0, { message: 'must be 0 or more', abort: true })
  .max(MAX_AMOUNT, { message: 'is too large', abort: true })
  .refine(hasAtMostTwoDecimals, 'must have at most 2 decimals')
  .meta({
    description: `Decimal from 0 to ${MAX_AMOUNT} with at most 2 decimals (a third decimal is refused).`,
    example: 1250.5,
  });

const currency = z
  .enum(CURRENCIES as [string, ...string[]], { error: 'must be an ISO 4217 code such as USD or EUR' })
  .meta({
    description: 'ISO 4217 code in capitals; defaults to the workspace currency (USD)',
    example: 'EUR',
  });

const title = nonBlankText(500);
const data = z.record(z.string(), z.unknown());

export const dealOutput = z
  .object({
    id: z.string().meta({ example: 'deal_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    pipelineId: z.string(),
    stageId: z.string(),
    title: z.string().nullable(),
    amount: z.number().nullable(),
    currency: z.string(),
    closeDate: z.string().nullable().meta({ description: 'YYYY-MM-DD', example: '2026-12-31' }),
    data: z.record(z.string(), z.unknown()),
    recordId: z.string().nullable(),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'Deal' });

export type DealOutput = z.infer<typeof dealOutput>;

export const findDealsInput = z.strictObject({
  pipelineId: z.string().max(200).meta({ description: 'Required: the pipeline whose deals to list' }),
  stageId: z.string().max(200).optional().meta({ description: 'Only deals in this stage of the pipeline' }),
  recordId: z.string().max(200).optional().meta({ description: 'Only deals linked to this record' }),
  filter: filterParam().optional(),
  sort: sortParam(
    ['createdAt', 'updatedAt', 'title', 'amount', 'closeDate'],
    '.+',
    '`createdAt`, `updatedAt`, `title`, `amount`, `closeDate` or `data.<key>`, ascending; `-` before it for descending (default `-createdAt`). The id breaks ties; deals without a value come last.',
  ),
  count: countParam('deals'),
  ...pagingInput,
});

/** `GET /records/{id}/deals`: the deal list's parameters, the pipeline optional. */
export const findRecordDealsInput = findDealsInput.omit({ pipelineId: true, recordId: true }).extend({
  id: idParam('Record id'),
  pipelineId: z.string().max(200).optional().meta({ description: 'Only deals of this pipeline' }),
});

export const createDealInput = z.strictObject({
  pipelineId: z.string().max(200),
  stageId: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'A stage of the pipeline; default its first stage' }),
  title: title.optional(),
  amount: amount.optional(),
  currency: currency.optional(),
  closeDate: dateOnly().optional(),
  data: data.optional().meta({ description: 'Free JSON object' }),
  recordId: z.string().max(200).optional().meta({ description: 'A live record to link the deal to' }),
});

export const updateDealInput = z.strictObject({
  id: idParam('Deal id'),
  stageId: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Move the deal to this stage of its pipeline' }),
  title: title.nullish(),
  amount: amount.nullish().meta({
    description: `Decimal from 0 to ${MAX_AMOUNT} with at most 2 decimals (a third decimal is refused); null clears it.`,
  }),
  currency: currency.optional(),
  closeDate: dateOnly().nullish(),
  data: data.optional().meta({ description: 'Merged: keys given replace, a key given as null is removed' }),
  recordId: z.string().max(200).nullish(),
});

export const dealIdInput = z.strictObject({ id: idParam('Deal id') });
