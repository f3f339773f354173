import type { Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import type { WebhookHealthReportOutput } from './schemas.ts';
import { percent, utcDays } from './windows.ts';

/** How many days the report covers, today (UTC) included. */
const WEBHOOK_HEALTH_DAYS = 7;

interface SubscriptionRow extends Record<string, unknown> {
  id: string;
  url: string;
  description: string;
  enabled: boolean;
}

interface AttemptRow extends Record<string, unknown> {
  webhook_id: string;
  /** Null on the row of the whole window. */
  day: string | null;
  succeeded: number;
  failed: number;
  p50: number | null;
  p95: number | null;
}

interface DeliveryRow extends Record<string, unknown> {
  webhook_id: string;
  day: string | null;
  succeeded: number;
  failed: number;
  pending: number;
}

type Counts = Omit<
  WebhookHealthReportOutput['subscriptions'][number],
  'webhookId' | 'url' | 'description' | 'enabled' | 'days'
>;

/**
 * How each webhook subscription of the workspace fared over the last 7 days (UTC), per day and
 * over the whole window, all counted by PostgreSQL:
 *
 * - attempts (docs/webhooks.md, "Delivery, retries, disabling"): one succeeded when the
 *   receiver answered 2xx, failed otherwise (another status, a timeout, a refused connection),
 *   on the day it started; the success rate is the succeeded ones in percent of all;
 * - the median and 95th percentile of their recorded durations, by nearest rank
 *   (`percentile_disc`: always a duration that was measured);
 * - deliveries, on the day they were created, by their status now: succeeded, failed (out of
 *   attempts, or closed with the subscription disabled) or still pending. A redelivery is a
 *   delivery of its own.
 *
 * The window is the 7 whole UTC days that end with today's. Every subscription is listed,
 * also one without traffic, newest first, and every day of the window for each.
 */
export async function reportWebhookHealth(
  db: Executor,
  actor: Actor,
  now: Date = new Date(),
): Promise<WebhookHealthReportOutput> {
  const window = utcDays(now, WEBHOOK_HEALTH_DAYS);
  const from = window.from.toISOString();
  const to = window.to.toISOString();
  const workspaceId = actor.workspaceId;
  // One after another: `db` may be a transaction, which runs one statement at a time.
  const subscriptions = await db.execute<SubscriptionRow>(sql`
      select id, url, description, enabled from webhooks
       where workspace_id = ${workspaceId}
       order by created_at desc, id desc`);
  const attempts = await db.execute<AttemptRow>(sql`
      select d.webhook_id, to_char(a.started_at at time zone 'UTC', 'YYYY-MM-DD') as day,
             count(*) filter (where a.response_status between 200 and 299)::int as succeeded,
             count(*) filter (where a.response_status is null or a.response_status not between 200 and 299)::int as failed,
             percentile_disc(0.5) within group (order by a.duration_ms) as p50,
             percentile_disc(0.95) within group (order by a.duration_ms) as p95
        from delivery_attempts a
        join deliveries d on d.workspace_id = a.workspace_id and d.id = a.delivery_id
       where a.workspace_id = ${workspaceId} and d.workspace_id = ${workspaceId}
         and a.started_at >= ${from}::timestamptz and a.started_at < ${to}::timestamptz
       group by grouping sets ((d.webhook_id, day), (d.webhook_id))`);
  const deliveries = await db.execute<DeliveryRow>(sql`
      select webhook_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
             count(*) filter (where status = 'SUCCEEDED')::int as succeeded,
             count(*) filter (where status = 'FAILED')::int as failed,
             count(*) filter (where status = 'PENDING')::int as pending
        from deliveries
       where workspace_id = ${workspaceId}
         and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
       group by grouping sets ((webhook_id, day), (webhook_id))`);

  const key = (webhookId: string, day: string | null) => `${webhookId} ${day ?? '*'}`;
  const attemptsBy = new Map(attempts.rows.map((row) => [key(row.webhook_id, row.day), row]));
  const deliveriesBy = new Map(deliveries.rows.map((row) => [key(row.webhook_id, row.day), row]));
  const counts = (webhookId: string, day: string | null): Counts => {
    const a = attemptsBy.get(key(webhookId, day));
    const d = deliveriesBy.get(key(webhookId, day));
    const succeeded = a?.succeeded ?? 0;
    const failed = a?.failed ?? 0;
    return {
      attemptsSucceeded: succeeded,
      attemptsFailed: failed,
      successRate: percent(succeeded, succeeded + failed),
      deliveriesSucceeded: d?.succeeded ?? 0,
      deliveriesFailed: d?.failed ?? 0,
      deliveriesPending: d?.pending ?? 0,
      p50Ms: a?.p50 ?? null,
      p95Ms: a?.p95 ?? null,
    };
  };
  return {
    from,
    to,
    days: window.days,
    subscriptions: subscriptions.rows.map((sub) => ({
      webhookId: sub.id,
      url: sub.url,
      description: sub.description,
      enabled: sub.enabled,
      ...counts(sub.id, null),
      days: window.days.map((day) => ({ day, ...counts(sub.id, day) })),
    })),
  };
}
