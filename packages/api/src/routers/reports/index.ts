import {
  automationRunsReportOutput,
  envelope,
  healthReportInput,
  pipelineReportInput,
  reportAutomationRuns,
  reportWebhookHealth,
  reportWonLost,
  webhookHealthReportOutput,
  wonLostReportOutput,
} from '@crm/domain';
import { authedProcedure, declaredOutput, router } from '../../trpc.ts';

// tRPC only, for the web app's Reports page (docs/web-app.md, "Reports"); its pipeline chart
// reads `pipelines.summary`, the board's own data. The deal reports are every member's, as the
// board is; the webhook and automation reports need what their
// settings pages need (webhooks:read and workflows:read: an owner or admin, or a key with them).
export const reportsRouter = router({
  /** Deals won and lost per month, the last 12 months (UTC), counted and summed per currency. */
  wonLost: authedProcedure
    .meta({ scope: 'deals:read' })
    .input(pipelineReportInput)
    .concat(declaredOutput(envelope(wonLostReportOutput)))
    .query(async ({ ctx, input }) => ({ data: await reportWonLost(ctx.db, ctx.actor, input.pipelineId) })),

  /** Attempts, deliveries and latency per webhook subscription and day, the last 7 days (UTC). */
  webhookHealth: authedProcedure
    .meta({ scope: 'webhooks:read' })
    .input(healthReportInput)
    .concat(declaredOutput(envelope(webhookHealthReportOutput)))
    .query(async ({ ctx }) => ({ data: await reportWebhookHealth(ctx.db, ctx.actor) })),

  /** Automation runs per day and status, the last 14 days (UTC). */
  automationRuns: authedProcedure
    .meta({ scope: 'workflows:read' })
    .input(healthReportInput)
    .concat(declaredOutput(envelope(automationRunsReportOutput)))
    .query(async ({ ctx }) => ({ data: await reportAutomationRuns(ctx.db, ctx.actor) })),
});
