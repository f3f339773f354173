import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { newId } from '../shared/ids.ts';
import { queueDeliveryJob } from './queue-delivery.ts';
import { MAX_ATTEMPTS, nextRetryDelayMs, parseRetryAfter, type RetryPolicy } from './retry-schedule.ts';

/** A subscription failing without a single success for this long is disabled (contract §6). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;

export type DeliveryRow = typeof schema.deliveries.$inferSelect;
export type WebhookRow = typeof schema.webhooks.$inferSelect;
export type EventRow = typeof schema.events.$inferSelect;

export interface DeliveryToSend {
  delivery: DeliveryRow;
  webhook: WebhookRow;
  event: EventRow;
}

/**
 * The delivery, its subscription and its event, when there is something to send: a
 * pending delivery of an enabled subscription. Null otherwise (already done, disabled,
 * deleted), in which case the job simply ends.
 */
export async function loadDeliveryToSend(db: Database, deliveryId: string): Promise<DeliveryToSend | null> {
  const d = schema.deliveries;
  const [row] = await db
    .select({ delivery: d, webhook: schema.webhooks, event: schema.events })
    .from(d)
    .innerJoin(
      schema.webhooks,
      and(eq(schema.webhooks.workspaceId, d.workspaceId), eq(schema.webhooks.id, d.webhookId)),
    )
    .innerJoin(schema.events, eq(schema.events.id, d.eventId))
    .where(eq(d.id, deliveryId));
  if (row?.delivery.status !== 'PENDING') return null;
  if (!row.webhook.enabled) {
    await db
      .update(d)
      .set({ status: 'FAILED', nextAttemptAt: null, updatedAt: sql`now()` })
      .where(eq(d.id, deliveryId));
    return null;
  }
  return row;
}

export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  status?: number | undefined;
  headers?: Record<string, string | string[] | undefined> | undefined;
  excerpt?: string | undefined;
  error?: string | undefined;
}

export type AttemptVerdict = 'succeeded' | 'retry' | 'failed' | 'disabled';

/**
 * Records one attempt and decides what follows: a 2xx succeeds; 410 Gone disables the
 * subscription at once; anything else is retried on the schedule (Retry-After honoured)
 * until the attempts run out, and a subscription failing for 5 days is disabled. Runs under
 * the delivery's row lock, so two runs of one job cannot both record.
 */
export async function recordDeliveryAttempt(
  db: Database,
  target: DeliveryToSend,
  outcome: AttemptOutcome,
  policy: RetryPolicy,
): Promise<AttemptVerdict> {
  const { delivery, webhook } = target;
  return db.transaction(async (tx) => {
    const d = schema.deliveries;
    const [locked] = await tx.select().from(d).where(eq(d.id, delivery.id)).for('update');
    if (locked?.status !== 'PENDING') return 'failed';
    const attempt = locked.attemptCount + 1;
    await tx.insert(schema.deliveryAttempts).values({
      workspaceId: delivery.workspaceId,
      id: newId('attempt'),
      deliveryId: delivery.id,
      attempt,
      startedAt: outcome.startedAt,
      durationMs: Math.round(outcome.durationMs),
      responseStatus: outcome.status ?? null,
      error: outcome.error ?? null,
      responseExcerpt: outcome.excerpt ?? null,
    });
    const w = schema.webhooks;
    const whereWebhook = and(eq(w.workspaceId, webhook.workspaceId), eq(w.id, webhook.id));
    const finish = (status: 'SUCCEEDED' | 'FAILED') =>
      tx
        .update(d)
        .set({ status, attemptCount: attempt, nextAttemptAt: null, updatedAt: sql`now()` })
        .where(eq(d.id, delivery.id));

    if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) {
      await finish('SUCCEEDED');
      // Every success would otherwise update the one subscription row; once a minute is enough
      // for lastSuccessAt, and a success after failures always clears failingSince.
      await tx
        .update(w)
        .set({ lastSuccessAt: sql`now()`, failingSince: null })
        .where(
          and(
            whereWebhook,
            sql`(${w.failingSince} is not null or ${w.lastSuccessAt} is null or ${w.lastSuccessAt} < now() - interval '1 minute')`,
          ),
        );
      return 'succeeded';
    }
    if (outcome.status === 410) {
      await finish('FAILED');
      await tx
        .update(w)
        .set({ enabled: false, disabledReason: 'The receiver answered 410 Gone', updatedAt: sql`now()` })
        .where(whereWebhook);
      return 'disabled';
    }
    const [current] = await tx
      .update(w)
      .set({ failingSince: sql`coalesce(${w.failingSince}, now())` })
      .where(whereWebhook)
      .returning({ failingSince: w.failingSince });
    if (current?.failingSince && Date.now() - current.failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      await finish('FAILED');
      await tx
        .update(w)
        .set({ enabled: false, disabledReason: 'No successful delivery for 5 days', updatedAt: sql`now()` })
        .where(whereWebhook);
      return 'disabled';
    }
    const retryAfter =
      outcome.status === 429 || outcome.status === 503
        ? parseRetryAfter(headerValue(outcome.headers, 'retry-after'))
        : null;
    const delay = attempt < MAX_ATTEMPTS ? nextRetryDelayMs(attempt, policy, retryAfter) : null;
    if (delay === null) {
      await finish('FAILED');
      return 'failed';
    }
    const runAt = new Date(Date.now() + delay);
    await tx
      .update(d)
      .set({ attemptCount: attempt, nextAttemptAt: runAt, updatedAt: sql`now()` })
      .where(eq(d.id, delivery.id));
    await queueDeliveryJob(tx, delivery.id, runAt);
    return 'retry';
  });
}

function headerValue(headers: AttemptOutcome['headers'], name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}
