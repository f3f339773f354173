import { z } from 'zod';
import { pagingInput } from '../shared/paging.ts';
import { idParam, instantOutput, nonBlankText } from '../shared/schemas.ts';

const name = nonBlankText(200);

const stageOutput = z
  .object({
    id: z.string().meta({ example: 'st_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    name: z.string(),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'Stage' });

export const pipelineOutput = z
  .object({
    id: z.string().meta({ example: 'pl_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    name: z.string(),
    stages: z.array(stageOutput).meta({ description: 'In pipeline order' }),
    createdAt: instantOutput(),
    updatedAt: instantOutput(),
  })
  .meta({ id: 'Pipeline' });

export type PipelineOutput = z.infer<typeof pipelineOutput>;

export const MAX_STAGES = 50;

export const findPipelinesInput = z.strictObject({ ...pagingInput });
export const pipelineIdInput = z.strictObject({ id: idParam('Pipeline id') });

export const createPipelineInput = z.strictObject({
  name,
  stages: z
    .array(name)
    .min(1)
    .max(MAX_STAGES)
    .optional()
    .meta({ description: 'Stage names in order; default Lead, Qualified, Proposal, Won, Lost' }),
});

export const renamePipelineInput = z.strictObject({ id: idParam('Pipeline id'), name });

export const addStageInput = z.strictObject({
  id: idParam('Pipeline id'),
  name,
  position: z
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: '0-based place of the new stage; default last' }),
});

export const renameStageInput = z.strictObject({
  id: idParam('Pipeline id'),
  stageId: idParam('Stage id'),
  name,
});

export const reorderStagesInput = z.strictObject({
  id: idParam('Pipeline id'),
  stageIds: z
    .array(z.string().max(200))
    .min(1)
    .max(MAX_STAGES)
    .meta({ description: 'Every stage id of the pipeline, once each, in the new order' }),
});

export const removeStageInput = z.strictObject({
  id: idParam('Pipeline id'),
  stageId: idParam('Stage id'),
  moveDealsTo: z.string().max(200).optional().meta({
    description: 'Another stage of the pipeline that takes the stage’s deals; required when it holds deals',
  }),
});

export const currencyTotalOutput = z
  .object({
    currency: z.string().meta({ example: 'USD', description: 'ISO 4217 code' }),
    count: z.number().int().meta({ description: 'Deals in this currency' }),
    amount: z.number().meta({
      description: 'Sum of their amounts, to the cent; a deal without an amount adds nothing',
      example: 12500.5,
    }),
  })
  .meta({ id: 'CurrencyTotal' });

export const pipelineSummaryOutput = z
  .object({
    pipelineId: z.string().meta({ example: 'pl_01jq3v6f6ve7s9t8m1k2c3d4e5' }),
    count: z.number().int().meta({ description: 'Deals in the pipeline' }),
    totals: z
      .array(currencyTotalOutput)
      .meta({ description: 'Per currency, by code; amounts of different currencies are never added' }),
    stages: z
      .array(
        z.object({
          stageId: z.string(),
          name: z.string(),
          count: z.number().int().meta({ description: 'Deals in the stage' }),
          totals: z.array(currencyTotalOutput).meta({ description: 'Per currency, by code' }),
        }),
      )
      .meta({ description: 'Every stage, in pipeline order, also those without deals' }),
  })
  .meta({ id: 'PipelineSummary' });

export type PipelineSummaryOutput = z.infer<typeof pipelineSummaryOutput>;
export type CurrencyTotal = z.infer<typeof currencyTotalOutput>;
