import type { Executor, schema } from '@crm/db';
import { missing } from '../shared/missing.ts';
import { toInstant } from '../shared/schemas.ts';
import { loadStepRecords, type RunAction, type StepRecords, viewSteps } from './run-steps.ts';
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
      cron: row.schedule?.cron ?? null,
      timezone: row.schedule?.timezone ?? null,
      nextRunAt: row.enabled ? toInstant(row.nextRunAt) : null,
    },
    actions: row.actions,
    requireSignature: row.secret !== null,
    rateLimitPerMinute: row.rateLimitPerMinute,
    notifyOnFailure: row.notifyOnFailure,
    createdAt: toInstant(row.createdAt) ?? missing('toInstant(row.createdAt)'),
    updatedAt: toInstant(row.updatedAt) ?? missing('toInstant(row.updatedAt)'),
  };
}

/** A run as the API shows it, with its steps (`loadStepRecords`). */
function serializeRun(row: RunRow, records: StepRecords): RunOutput {
  const ended = row.status === 'SUCCEEDED' || row.status === 'FAILED' || row.status === 'CANCELLED';
  return {
    id: row.id,
    workflowId: row.workflowId,
    status: row.status,
    trigger: row.trigger as RunOutput['trigger'],
    input: row.input,
    recordId: row.recordId,
    resumeAt: row.status === 'WAITING' ? toInstant(row.resumeAt) : null,
    steps: viewSteps(row.actions as RunAction[], records, ended),
    error: row.error,
    rerunOf: row.rerunOf,
    createdAt: toInstant(row.createdAt) ?? missing('toInstant(row.createdAt)'),
    startedAt: toInstant(row.startedAt),
    finishedAt: toInstant(row.finishedAt),
  };
}

/** Runs of one workspace as the API shows them, their steps read in one statement. */
export async function serializeRuns(tx: Executor, workspaceId: string, rows: RunRow[]): Promise<RunOutput[]> {
  const records = await loadStepRecords(tx, workspaceId, rows);
  return rows.map((row) => serializeRun(row, records.get(row.id) ?? new Map()));
}
