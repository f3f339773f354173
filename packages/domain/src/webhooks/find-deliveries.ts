import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import { loadWebhook } from './load-webhook.ts';
import type { findDeliveriesInput } from './schemas.ts';
import { attemptsOf, type DeliveryWithEvent, selectDeliveries } from './select-deliveries.ts';
import { serializeDelivery } from './serialize.ts';

/** A page of a subscription's deliveries, newest first, each with all its attempts. */
export async function findDeliveries(db: Database, actor: Actor, input: z.infer<typeof findDeliveriesInput>) {
  const paging = resolvePaging(input);
  await loadWebhook(db, actor, input.id);
  const d = schema.deliveries;
  const rows: DeliveryWithEvent[] = await selectDeliveries(
    db,
    actor.workspaceId,
    and(eq(d.webhookId, input.id), afterCursor(d.createdAt, d.id, paging, 'desc')),
  )
    .orderBy(...keysetOrder(d.createdAt, d.id, 'desc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  const attempts = await attemptsOf(
    db,
    actor.workspaceId,
    rows.slice(0, paging.pageSize).map((r) => r.delivery.id),
  );
  return toPage(
    rows.map((r) => ({ ...r, id: r.delivery.id, createdAt: r.delivery.createdAt })),
    paging,
    (r) => serializeDelivery(r.delivery, r.event, attempts.get(r.delivery.id) ?? [], r.payload),
  );
}
