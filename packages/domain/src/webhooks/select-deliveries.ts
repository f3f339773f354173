import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DeliveryAttemptRow, DeliveryRow } from './serialize.ts';

// The statements that read deliveries with their event's kind and their attempts, for one
// delivery (get-delivery.ts) and a page of them (find-deliveries.ts).

/** A delivery, its event's kind, and the body a sandbox captured (null for other deliveries). */
export type DeliveryWithEvent = { delivery: DeliveryRow; event: string | null; payload: unknown };

/** Deliveries of the workspace matching `where`, each with its event's kind (null once pruned). */
export function selectDeliveries(tx: Executor, workspaceId: string, where: SQL | undefined) {
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
export async function attemptsOf(tx: Executor, workspaceId: string, deliveryIds: string[]) {
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
