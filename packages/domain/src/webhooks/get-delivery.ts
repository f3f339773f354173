import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import type { DeliveryOutput } from './schemas.ts';
import { attemptsOf, selectDeliveries } from './select-deliveries.ts';
import { serializeDelivery } from './serialize.ts';

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
