import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { newId } from '../shared/ids.ts';

/** Queues the job that sends a delivery, at `runAt` (default now); one pending job per delivery. */
export async function queueDeliveryJob(tx: Executor, deliveryId: string, runAt: Date = new Date()) {
  await tx.execute(sql`
    select graphile_worker.add_job('deliver_webhook', json_build_object('deliveryId', ${deliveryId}::text),
      run_at := ${runAt.toISOString()}::timestamptz, max_attempts := 5, job_key := ${`dlv:${deliveryId}`})`);
}

/** Creates a delivery of an event to a subscription and queues its first attempt. */
export async function createDelivery(
  tx: Executor,
  input: { workspaceId: string; webhookId: string; eventId: string; redeliveryOf?: string },
): Promise<string | null> {
  const id = newId('delivery');
  const inserted = await tx
    .insert(schema.deliveries)
    .values({ ...input, id, status: 'PENDING', nextAttemptAt: new Date() })
    .onConflictDoNothing()
    .returning({ id: schema.deliveries.id });
  if (inserted.length === 0) return null;
  await queueDeliveryJob(tx, id);
  return id;
}

/**
 * The fan-out job: one delivery per enabled subscription that wants the event. `*` matches
 * every kind; a subscription with `fields` gets `record.updated` only when one of those
 * fields changed. Safe to run twice: a second run finds the deliveries made.
 */
export async function fanOutEvent(db: Database, eventId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [event] = await tx.select().from(schema.events).where(eq(schema.events.id, eventId));
    if (!event) return 0;
    const w = schema.webhooks;
    const subscriptions = await tx
      .select({ id: w.id, fields: w.fields })
      .from(w)
      .where(
        and(
          eq(w.workspaceId, event.workspaceId),
          eq(w.enabled, true),
          sql`${w.events} && array[${event.type}, '*']::text[]`,
        ),
      );
    const changed = new Set((event.payload.changedFields as string[] | undefined) ?? []);
    let created = 0;
    for (const subscription of subscriptions) {
      if (event.type === 'record.updated' && subscription.fields.length > 0) {
        if (!subscription.fields.some((field) => changed.has(field))) continue;
      }
      const id = await createDelivery(tx, {
        workspaceId: event.workspaceId,
        webhookId: subscription.id,
        eventId,
      });
      if (id) created++;
    }
    return created;
  });
}
