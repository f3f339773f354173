import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import { missing } from '../shared/missing.ts';
import { getDeliveryView } from './get-delivery.ts';
import { loadWebhook } from './load-webhook.ts';
import { createDelivery } from './queue-delivery.ts';

/**
 * Sends a delivery's event again as a new delivery (`redeliveryOf` = the one repeated),
 * queued now whatever the original's status. It carries the same event id, so receivers
 * see the same `webhook-id` and can deduplicate. Refused (400) when the subscription is
 * disabled or the event is no longer kept (30 days).
 */
export async function redeliver(db: Database, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const original = await loadInWorkspace(tx, schema.deliveries, actor.workspaceId, id, {
      kind: 'delivery',
      name: 'Delivery',
    });
    const webhook = await loadWebhook(tx, actor, original.webhookId, { lock: 'share' });
    if (!webhook.enabled) {
      throw invalid('id', `webhook ${webhook.id} is disabled; enable it before redelivering`);
    }
    const e = schema.events;
    const [event] = await tx
      .select({ id: e.id })
      .from(e)
      .where(and(eq(e.workspaceId, actor.workspaceId), eq(e.id, original.eventId)));
    if (!event) throw invalid('id', `event ${original.eventId} is older than 30 days and no longer kept`);
    const created = await createDelivery(tx, {
      workspaceId: actor.workspaceId,
      webhookId: webhook.id,
      eventId: original.eventId,
      redeliveryOf: original.id,
    });
    return getDeliveryView(tx, actor.workspaceId, created ?? missing('created'));
  });
}
