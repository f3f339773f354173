import { type Database, isSharded, schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { queueRun } from './queue-run.ts';
import { queueScheduleJob } from './schedule-workflow.ts';
import { dueFiring, nextFiring } from './timing.ts';

/**
 * The `fire_schedule` job of a SCHEDULE workflow (docs/workflows.md, "Schedules"): starts the
 * run of the firing that is due, if any, and queues the job of the next firing. Each firing
 * starts one run however many workers run this job: the run's `eventId` is the firing's
 * moment, which a workflow's runs hold once. After downtime only the latest missed firing
 * runs, and only if it is at most an hour old.
 */
export async function fireSchedule(
  db: Database,
  ref: { workflowId: string; workspaceId: string },
): Promise<string | null> {
  const sharded = await isSharded(db);
  return db.transaction(async (tx) => {
    const w = schema.workflows;
    const [flow] = await tx
      .select()
      .from(w)
      .where(and(eq(w.workspaceId, ref.workspaceId), eq(w.id, ref.workflowId)))
      .for('update');
    if (!flow?.enabled || flow.triggerType !== 'SCHEDULE' || !flow.schedule) return null;
    const { cron, timezone } = flow.schedule;
    const clock = await tx.execute<{ now: Date | string }>(sql`select now() as now`);
    const now = new Date(clock.rows[0]?.now ?? Date.now());
    const due = dueFiring(cron, timezone, flow.lastScheduledFor ?? flow.updatedAt, now);
    let runId: string | null = null;
    if (due) {
      const scheduledFor = due.toISOString();
      runId = await queueRun(
        tx,
        {
          workspaceId: flow.workspaceId,
          workflowId: flow.id,
          trigger: 'SCHEDULE',
          input: { scheduledFor, firedAt: now.toISOString() },
          recordId: null,
          actions: flow.actions,
          eventId: `schedule:${scheduledFor}`,
        },
        sharded,
      );
    }
    const next = nextFiring(cron, timezone, now);
    await tx.execute(sql`
      update workflows
         set next_run_at = ${next.toISOString()},
             last_scheduled_for = coalesce(${due?.toISOString() ?? null}::timestamptz, last_scheduled_for)
       where workspace_id = ${flow.workspaceId} and id = ${flow.id}`);
    await queueScheduleJob(tx, flow, next);
    return runId;
  });
}
