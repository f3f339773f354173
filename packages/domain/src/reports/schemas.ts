import { runStatuses } from '@crm/db/schema';
import { z } from 'zod';
import { currencyTotalOutput } from '../pipelines/schemas.ts';
import { idParam } from '../shared/schemas.ts';

/** Reports read one pipeline: the board's, picked on the Reports page. */
export const pipelineReportInput = z.strictObject({ pipelineId: idParam('Pipeline id') });

/** The health reports take no input; their windows end today (UTC). */
export const healthReportInput = z.strictObject({}).optional();

const outcomeTotals = z.object({
  count: z.number().int().meta({ description: 'Deals, whatever their currency' }),
  totals: z
    .array(currencyTotalOutput)
    .meta({ description: 'Per currency, by code; amounts of different currencies are never added' }),
});

export const wonLostReportOutput = z
  .object({
    pipelineId: z.string(),
    from: z.string().meta({ description: 'First day of the first month (UTC), YYYY-MM-DD' }),
    to: z.string().meta({ description: 'First day after the last month (UTC), YYYY-MM-DD' }),
    wonStages: z
      .array(z.object({ stageId: z.string(), name: z.string() }))
      .meta({ description: 'Stages whose deals count as won (named "Won" or "Closed won", any case)' }),
    lostStages: z
      .array(z.object({ stageId: z.string(), name: z.string() }))
      .meta({ description: 'Stages whose deals count as lost (named "Lost" or "Closed lost", any case)' }),
    currencies: z.array(z.string()).meta({ description: 'Currencies of the counted deals, by code' }),
    months: z
      .array(
        z.object({
          month: z.string().meta({ example: '2026-11', description: 'YYYY-MM' }),
          won: outcomeTotals,
          lost: outcomeTotals,
        }),
      )
      .meta({ description: 'The last 12 months, oldest first, also those without deals' }),
  })
  .meta({ id: 'WonLostReport' });

const attemptCounts = {
  attemptsSucceeded: z.number().int().meta({ description: 'Attempts answered with a 2xx' }),
  attemptsFailed: z
    .number()
    .int()
    .meta({ description: 'Attempts without a 2xx (other status, timeout, refused)' }),
  successRate: z
    .number()
    .nullable()
    .meta({ description: 'Attempts succeeded in percent of all attempts, to 0.1; null without attempts' }),
  deliveriesSucceeded: z.number().int(),
  deliveriesFailed: z
    .number()
    .int()
    .meta({ description: 'Deliveries that ran out of attempts or were closed' }),
  deliveriesPending: z.number().int().meta({ description: 'Deliveries still being tried' }),
  p50Ms: z.number().int().nullable().meta({ description: 'Median attempt duration (nearest rank), ms' }),
  p95Ms: z
    .number()
    .int()
    .nullable()
    .meta({ description: '95th percentile attempt duration (nearest rank), ms' }),
};

export const webhookHealthReportOutput = z
  .object({
    from: z.string().meta({ description: 'Start of the first day, UTC (ISO 8601)' }),
    to: z.string().meta({ description: 'End of the last day (exclusive), UTC (ISO 8601)' }),
    days: z.array(z.string()).meta({ description: 'The 7 days of the window, YYYY-MM-DD, oldest first' }),
    subscriptions: z.array(
      z.object({
        webhookId: z.string(),
        url: z.string(),
        description: z.string(),
        enabled: z.boolean(),
        ...attemptCounts,
        days: z
          .array(z.object({ day: z.string(), ...attemptCounts }))
          .meta({ description: 'Each day of the window, oldest first, also those without traffic' }),
      }),
    ),
  })
  .meta({ id: 'WebhookHealthReport' });

const runCounts = {
  queued: z.number().int(),
  running: z.number().int(),
  waiting: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  total: z.number().int(),
};

export const automationRunsReportOutput = z
  .object({
    from: z.string().meta({ description: 'Start of the first day, UTC (ISO 8601)' }),
    to: z.string().meta({ description: 'End of the last day (exclusive), UTC (ISO 8601)' }),
    statuses: z.array(z.enum(runStatuses)),
    totals: z.object(runCounts),
    days: z
      .array(z.object({ day: z.string(), ...runCounts }))
      .meta({ description: 'The 14 days of the window, oldest first, also those without runs' }),
  })
  .meta({ id: 'AutomationRunsReport' });

export type WonLostReportOutput = z.infer<typeof wonLostReportOutput>;
export type WebhookHealthReportOutput = z.infer<typeof webhookHealthReportOutput>;
export type AutomationRunsReportOutput = z.infer<typeof automationRunsReportOutput>;
