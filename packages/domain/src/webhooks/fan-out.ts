import { type Database, isSharded } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { RowRef } from '../shared/row-ref.ts';

/**
 * The channel delivery workers listen on; a notification means "pending deliveries are due",
 * and its payload names their workspace (empty: look everywhere).
 */
export const DELIVERY_CHANNEL = 'crm_deliveries';

/**
 * The common table expression `created_deliveries`: one pending delivery, due now, per
 * enabled subscription that wants the event of the preceding CTE `event` (id, workspace_id,
 * type, payload). `*` matches every kind; a subscription with `fields` gets `record.updated`
 * only when one of those fields changed. A second run for the same event creates nothing
 * (`deliveries_once_idx`).
 *
 * `sharded` (from `isSharded`): a sharded database reads the subscriptions with the workspace
 * named, so on the node holding it instead of on every shard, and in a step of its own, far
 * enough ahead of the insert that a subscription deleted in between would fail the
 * deliveries' foreign key; so there the subscriptions read are locked (KEY SHARE): a delete
 * waits for this transaction, or, having committed first, leaves them out (docs/scaling.md).
 */
export function createDeliveriesOfEvent(workspaceId: string | undefined, sharded = false) {
  const subscriptions =
    sharded && workspaceId !== undefined
      ? sql`(select * from webhooks where workspace_id = ${workspaceId} and enabled for key share)`
      : sql`webhooks`;
  return sql`created_deliveries as (
      insert into deliveries (workspace_id, id, webhook_id, event_id, status, next_attempt_at)
      select w.workspace_id, new_typeid('dlv'), w.id, e.id, 'PENDING', now()
      from event e
      join ${subscriptions} w on w.workspace_id = e.workspace_id and w.enabled and w.events && array[e.type, '*']::text[]
      where e.type <> 'record.updated' or cardinality(w.fields) = 0
        or w.fields && array(select jsonb_array_elements_text(e.payload->'changedFields'))
      on conflict do nothing
      returning id
    )`;
}

/**
 * Creates the deliveries of a stored event, as `appendEvent` does when writing it. Serves
 * `fan_out_event` jobs queued before deliveries were created with their event; returns
 * how many deliveries it made (0 when they exist already), and wakes the workers when any.
 */
export async function fanOutEvent(db: Database, ref: RowRef): Promise<number> {
  const workspace = ref.workspaceId ? sql`workspace_id = ${ref.workspaceId} and` : sql``;
  const sharded = await isSharded(db);
  return db.transaction(async (tx) => {
    const result = await tx.execute<{ created: number }>(sql`
      with event as (select id, workspace_id, type, payload from events where ${workspace} id = ${ref.id}),
      ${createDeliveriesOfEvent(ref.workspaceId, sharded)}
      select count(*)::int as created from created_deliveries`);
    const created = result.rows[0]?.created ?? 0;
    if (created > 0)
      await tx.execute(sql`select pg_notify(${DELIVERY_CHANNEL}, ${ref.workspaceId ?? ''}::text)`);
    return created;
  });
}
