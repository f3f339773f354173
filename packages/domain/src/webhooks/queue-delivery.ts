import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { sql } from 'drizzle-orm';
import { DELIVERY_CHANNEL } from '../shared/fan-out.ts';
import { newId } from '../shared/ids.ts';

/**
 * Creates a delivery of an event to a subscription, due now, and wakes the delivery
 * workers when the transaction commits (a test event, a redelivery).
 */
export async function createDelivery(
  tx: Executor,
  input: { workspaceId: string; webhookId: string; eventId: string; redeliveryOf?: string },
): Promise<string | null> {
  const id = newId('delivery');
  const inserted = await tx
    .insert(schema.deliveries)
    .values({ ...input, id, status: 'PENDING', nextAttemptAt: sql`now()` })
    .onConflictDoNothing()
    .returning({ id: schema.deliveries.id });
  if (inserted.length === 0) return null;
  await tx.execute(sql`select pg_notify(${DELIVERY_CHANNEL}, ${input.workspaceId}::text)`);
  return id;
}
