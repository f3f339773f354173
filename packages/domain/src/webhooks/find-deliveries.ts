import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import { loadWebhook } from './find-webhooks.ts';
import type { DeliveryOutput, findDeliveriesInput } from './schemas.ts';
import type { DeliveryRow } from './serialize.ts';
import { type DeliveryAttemptRow, serializeDelivery } from './serialize.ts';

type DeliveryWithEvent = { delivery: DeliveryRow; event: string | null; payload: unknown };

/** Deliveries of the workspace matching `where`, each with its event's kind (null once pruned). */
function selectDeliveries(tx: Executor, workspaceId: string, where: SQL | undefined) {
  const d = schema.deliveries;
  const e = schema.events;
  return (
    tx
      // The body only where it is shown: a delivery a sandbox captured.
      .select({
        delivery: d,
        event: e.type,
        payload: sql<unknown>`case when ${d.status} = 'CAPTURED' then ${e.payload} end`,
      })
      .from(d)
      .leftJoin(e, and(eq(e.workspaceId, d.workspaceId), eq(e.id, d.eventId)))
      .where(and(eq(d.workspaceId, workspaceId), where))
  );
}

/** The attempts of these deliveries in one query, grouped by delivery, in attempt order. */
async function attemptsOf(tx: Executor, workspaceId: string, deliveryIds: string[]) {
  const byDelivery = new Map<string, DeliveryAttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const a = schema.deliveryAttempts;
  const rows = await tx
    .select()
    .from(a)
    .where(and(eq(a.workspaceId, workspaceId), inArray(a.deliveryId, deliveryIds)))
    .orderBy(asc(a.deliveryId), asc(a.attempt));
  for (const row of rows) {
    const list = byDelivery.get(row.deliveryId);
    if (list) list.push(row);
    else byDelivery.set(row.deliveryId, [row]);
  }
  return byDelivery;
}

/** One delivery of the workspace as the API shows it (used after creating one). */
export async function getDeliveryView(
  tx: Executor,
  workspaceId: string,
  id: string,
): Promise<DeliveryOutput> {
  const [row] = await selectDeliveries(tx, workspaceId, eq(schema.deliveries.id, id));
  if (!row) throw new Error(`delivery ${id} vanished`);
  const attempts = await attemptsOf(tx, workspaceId, [id]);
  return serializeDelivery(row.delivery, row.event, attempts.get(id) ?? [], row.payload);
}

/** One delivery of the workspace with all its attempts (404 when it is not the workspace's). */
export async function getDelivery(db: Database, actor: Actor, id: string): Promise<DeliveryOutput> {
  if (!isId('delivery', id)) throw notFound('Delivery', id);
  const [row] = await selectDeliveries(db, actor.workspaceId, eq(schema.deliveries.id, id));
  if (!row) throw notFound('Delivery', id);
  const attempts = await attemptsOf(db, actor.workspaceId, [id]);
  return serializeDelivery(row.delivery, row.event, attempts.get(id) ?? [], row.payload);
}

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
