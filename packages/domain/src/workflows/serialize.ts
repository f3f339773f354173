import type { schema } from '@crm/db';
import type { RunStep } from '@crm/db/schema';
import { missing } from '../shared/missing.ts';
import { toInstant } from '../shared/schemas.ts';
import type { RunOutput, WorkflowOutput } from './schemas.ts';

export type WorkflowRow = typeof schema.workflows.$inferSelect;
export type RunRow = typeof schema.workflowRuns.$inferSelect;

/** The path of the incoming-webhook trigger; outside /api/v1, it needs no API key. */
export function triggerPath(workflowId: string): string {
  return `/api/webhooks/trigger/${workflowId}`;
}

/** A workflow as the API shows it: never its secret; the trigger URL under `baseUrl`. */
export function serializeWorkflow(row: WorkflowRow, baseUrl: string): WorkflowOutput {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    trigger: {
      type: row.triggerType as WorkflowOutput['trigger']['type'],
      url:
        row.triggerType === 'INCOMING_WEBHOOK'
          ? `${baseUrl.replace(/\/+$/, '')}${triggerPath(row.id)}`
          : null,
    },
    actions: row.actions,
    requireSignature: row.secret !== null,
    rateLimitPerMinute: row.rateLimitPerMinute,
    createdAt: toInstant(row.createdAt) ?? missing('toInstant(row.createdAt)'),
    updatedAt: toInstant(row.updatedAt) ?? missing('toInstant(row.updatedAt)'),
  };
}

/** A step that has not run yet. */
export function pendingStep(index: number, action: string): RunStep {
  return {
    index,
    action,
    status: 'PENDING',
    input: null,
    output: null,
    error: null,
    attempts: 0,
    nextAttemptAt: null,
    startedAt: null,
    finishedAt: null,
  };
}

/** Steps not run yet are shown PENDING, so a run always lists every action. */
export function serializeRun(row: RunRow): RunOutput {
  const steps = row.actions.map(
    (action, index) => row.steps[index] ?? pendingStep(index, String(action.type)),
  );
  return {
    id: row.id,
    workflowId: row.workflowId,
    status: row.status,
    trigger: row.trigger as RunOutput['trigger'],
    input: row.input,
    recordId: row.recordId,
    steps,
    error: row.error,
    rerunOf: row.rerunOf,
    createdAt: toInstant(row.createdAt) ?? missing('toInstant(row.createdAt)'),
    startedAt: toInstant(row.startedAt),
    finishedAt: toInstant(row.finishedAt),
  };
}
