import type { Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
import { nextFiring } from './timing.ts';

/** The job key of a workflow's next firing: one pending job per schedule, whoever queued it. */
const scheduleJobKey = (workflowId: string) => `schedule:${workflowId}`;

/** Queues the `fire_schedule` job of a workflow for `at`, replacing the one it had. */
export async function queueScheduleJob(
  tx: Executor,
  workflow: { workspaceId: string; id: string },
  at: Date,
): Promise<void> {
  await tx.execute(sql`
    select graphile_worker.add_job('fire_schedule',
      json_build_object('workflowId', ${workflow.id}::text, 'workspaceId', ${workflow.workspaceId}::text),
      run_at := ${at.toISOString()}::timestamptz, max_attempts := 25,
      job_key := ${scheduleJobKey(workflow.id)}, job_key_mode := 'replace')`);
}

/** The schedule a trigger stores: its cron and zone for SCHEDULE (UTC unless given), null otherwise. */
export function scheduleOf(trigger: {
  type: string;
  cron?: string | undefined;
  timezone?: string | undefined;
}): { cron: string; timezone: string } | null {
  return trigger.type === 'SCHEDULE' && trigger.cron !== undefined
    ? { cron: trigger.cron, timezone: trigger.timezone ?? 'UTC' }
    : null;
}

interface Scheduled {
  workspaceId: string;
  id: string;
  enabled: boolean;
  triggerType: string;
  schedule: { cron: string; timezone: string } | null;
}

/**
 * Brings a workflow's next firing in line with what was saved (docs/workflows.md,
 * "Schedules"): an enabled SCHEDULE gets `next_run_at` and one `fire_schedule` job for that
 * moment, under the workflow's job key (so saving twice leaves one job); anything else has
 * neither. Called in the transaction that saved the workflow: the job exists exactly when the
 * schedule does.
 */
export async function syncSchedule(
  tx: Executor,
  workflow: Scheduled,
  now = new Date(),
): Promise<Date | null> {
  const next =
    workflow.enabled && workflow.triggerType === 'SCHEDULE' && workflow.schedule
      ? nextFiring(workflow.schedule.cron, workflow.schedule.timezone, now)
      : null;
  await tx.execute(sql`
    update workflows set next_run_at = ${next?.toISOString() ?? null}
     where workspace_id = ${workflow.workspaceId} and id = ${workflow.id}`);
  if (next) {
    await queueScheduleJob(tx, workflow, next);
  } else {
    await tx.execute(sql`select graphile_worker.remove_job(${scheduleJobKey(workflow.id)})`);
  }
  return next;
}
