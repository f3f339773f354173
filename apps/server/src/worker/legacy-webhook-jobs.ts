import type { Database } from '@crm/db';
import { fanOutStoredEvents } from '@crm/domain';
import type pg from 'pg';

/**
 * The jobs through which versions before the deliveries table became the webhook queue
 * (docs/decisions/0001-webhook-delivery-queue.md) sent webhooks: `fan_out_event` made an
 * event's deliveries, `deliver_webhook` sent one. No task of this version runs them.
 */
const LEGACY_TASKS = ['fan_out_event', 'deliver_webhook'];

/** How many jobs of the legacy tasks a drain found, and what it did with them. */
export interface LegacyJobsDrained {
  /** `fan_out_event` jobs whose events were fanned out. */
  fannedOut: number;
  /** Deliveries those made (none for an event whose deliveries exist, or that is gone). */
  deliveries: number;
  /** `deliver_webhook` jobs: their deliveries are rows of the queue already. */
  deliverJobs: number;
  /** `fan_out_event` jobs that had failed for good, removed without running them. */
  failedJobs: number;
  /** Jobs removed from graphile-worker's queue (a job another process took meanwhile is not). */
  removed: number;
}

/**
 * Drains the jobs of the legacy tasks an earlier version left in graphile-worker's queue
 * (docs/operations.md, "Upgrade notes"), as that version would have run them: a
 * `fan_out_event` job's event gets its deliveries, due now, unless it has them already; a
 * `deliver_webhook` job did nothing but name a delivery that is pending in the deliveries
 * table, where the dispatcher finds it. A job that had failed for good is removed unrun, as
 * graphile-worker would never have run it again. The deliveries are made before the jobs are
 * removed, so a drain that stops halfway is finished by the next one, which makes no delivery
 * twice. A job another worker holds is left to it.
 *
 * graphile-worker's `jobs` view shows no payload, so the event ids are read from its table
 * `_private_jobs`, by the view's ids (the test beside this file fails if that table moves).
 */
export async function drainLegacyWebhookJobs(pool: pg.Pool, db: Database): Promise<LegacyJobsDrained> {
  const { rows } = await pool.query<{ id: string; task: string; event_id: string | null; failed: boolean }>(
    `select j.id::text, j.task_identifier as task, p.payload->>'eventId' as event_id,
            j.attempts >= j.max_attempts as failed
       from graphile_worker.jobs j join graphile_worker._private_jobs p on p.id = j.id
      where j.task_identifier = any($1::text[])
        and (j.locked_at is null or j.locked_at < now() - interval '4 hours')`,
    [LEGACY_TASKS],
  );
  const drained: LegacyJobsDrained = {
    fannedOut: 0,
    deliveries: 0,
    deliverJobs: 0,
    failedJobs: 0,
    removed: 0,
  };
  if (rows.length === 0) return drained;
  const eventIds: string[] = [];
  for (const job of rows) {
    if (job.task === 'deliver_webhook') drained.deliverJobs++;
    else if (job.failed) drained.failedJobs++;
    else {
      drained.fannedOut++;
      if (job.event_id !== null) eventIds.push(job.event_id);
    }
  }
  drained.deliveries = await fanOutStoredEvents(db, eventIds);
  // graphile-worker's own removal of finished jobs: it leaves a job a worker holds.
  const removed = await pool.query('select id from graphile_worker.complete_jobs($1::bigint[])', [
    rows.map((job) => job.id),
  ]);
  drained.removed = removed.rowCount ?? 0;
  return drained;
}
