import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { type Actor, provenanceOf } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { getDeliveryView } from './get-delivery.ts';
import { loadWebhook } from './load-webhook.ts';
import { createDelivery } from './queue-delivery.ts';

/** Kind of the events written by `POST /webhooks/{id}/test`; never fanned out nor listed in the feed. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * Sends a test event to one subscription: an event of kind `webhook.test` (the fields every
 * event has, no record, `test: true`: docs/webhooks.md, "Payload") and a delivery of it to this
 * subscription only. The event row is inserted directly, not through `appendEvent`, so no
 * delivery is made for any other subscription (`*` included). A disabled
 * subscription is refused: the worker would not send to it.
 */
export async function sendTestEvent(db: Database, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const webhook = await loadWebhook(tx, actor, id, { lock: 'share' });
    if (!webhook.enabled) throw invalid('id', `webhook ${id} is disabled; enable it before testing`);
    const eventId = newId('event');
    const occurredAt = new Date();
    const payload = {
      id: eventId,
      event: TEST_EVENT_TYPE,
      workspaceId: actor.workspaceId,
      occurredAt: occurredAt.toISOString(),
      recordId: null,
      folderId: null,
      record: null,
      webhookId: webhook.id,
      test: true,
      ...(({ actor: who, source, requestId }) => ({ actor: who, source, requestId }))(provenanceOf(actor)),
    };
    await tx
      .insert(schema.events)
      .values({ workspaceId: actor.workspaceId, id: eventId, type: TEST_EVENT_TYPE, payload, occurredAt });
    const deliveryId = await createDelivery(tx, {
      workspaceId: actor.workspaceId,
      webhookId: webhook.id,
      eventId,
    });
    return getDeliveryView(tx, actor.workspaceId, deliveryId ?? missing('deliveryId'));
  });
}
