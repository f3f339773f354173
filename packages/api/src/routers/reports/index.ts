import {
  automationRunsReportOutput,
  envelope,
  healthReportInput,
  pipelineReportInput,
  pipelineSummaryOutput,
  reportAutomationRuns,
  reportWebhookHealth,
  reportWonLost,
  summarizePipeline,
  webhookHealthReportOutput,
  wonLostReportOutput,
} from '@crm/domain';
import { authedProcedure, declaredOutput, manageProcedure, router } from '../../trpc.ts';

// tRPC only, for the web app's Reports page (docs/web-app.md, "Reports"). The deal reports are
// every member's, as the board is; the webhook and automation reports need what their
// settings pages need (manageProcedure: OWNER or ADMIN when signed in, the read scope for a key).
export const reportsRouter = router({
  /** Deal counts and exact sums by stage, per currency: the pipeline summary itself. */
  pipeline: authedProcedure
    .input(pipelineReportInput)
    .concat(declaredOutput(envelope(pipelineSummaryOutput)))
    .query(async ({ ctx, input }) => ({
      data: await summarizePipeline(ctx.db, ctx.actor, input.pipelineId),
    })),

  /** Deals won and lost per month, the last 12 months (UTC), counted and summed per currency. */
  wonLost: authedProcedure
    .input(pipelineReportInput)
    .concat(declaredOutput(envelope(wonLostReportOutput)))
    .query(async ({ ctx, input }) => ({ data: await reportWonLost(ctx.db, ctx.actor, input.pipelineId) })),

  /** Attempts, deliveries and latency per webhook subscription and day, the last 7 days (UTC). */
  webhookHealth: manageProcedure
    .input(healthReportInput)
    .concat(declaredOutput(envelope(webhookHealthReportOutput)))
    .query(async ({ ctx }) => ({ data: await reportWebhookHealth(ctx.db, ctx.actor) })),

  /** Automation runs per day and status, the last 14 days (UTC). */
  automationRuns: manageProcedure
    .input(healthReportInput)
    .concat(declaredOutput(envelope(automationRunsReportOutput)))
    .query(async ({ ctx }) => ({ data: await reportAutomationRuns(ctx.db, ctx.actor) })),
});
