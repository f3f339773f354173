import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';
import type { RowRef } from './row-ref.ts';

/**
 * The channel delivery workers listen on; a notification means "pending deliveries are due",
 * and its payload names their workspace (empty: look everywhere).
 */
export const DELIVERY_CHANNEL = 'crm_deliveries';

/**
 * The common table expression `created_deliveries`: one pending delivery, due now, per
 * enabled subscription that wants the event of the preceding CTE `event` (id, workspace_id,
 * type, payload). `*` matches every kind; a subscription with `fields` gets `record.updated`,
 * `deal.updated` and `task.updated` only when one of those fields changed. A second run for the same event creates nothing
 * (`deliveries_once_idx`).
 *
 * The subscriptions read are locked (KEY SHARE, the lock the deliveries' foreign key takes
 * anyway): a subscription deleted while the event is written either waits for this
 * transaction or, deleted first, is left out. Read unlocked, a delete committed between the
 * read and the insert failed the whole write on the foreign key. With the workspace named, a
 * sharded database reads them on the node holding it instead of on every shard
 * (docs/scaling.md). Jobs queued before events carried their workspace name none.
 */
export function createDeliveriesOfEvent(workspaceId: string | undefined) {
  const subscriptions =
    workspaceId !== undefined
      ? sql`(select * from webhooks where workspace_id = ${workspaceId} and enabled for key share)`
      : sql`webhooks`;
  return sql`created_deliveries as (
      insert into deliveries (workspace_id, id, webhook_id, event_id, status, next_attempt_at)
      select w.workspace_id, new_typeid('dlv'), w.id, e.id, 'PENDING', now()
      from event e
      join ${subscriptions} w on w.workspace_id = e.workspace_id and w.enabled and w.events && array[e.type, '*']::text[]
      where e.type not in ('record.updated', 'deal.updated', 'task.updated') or cardinality(w.fields) = 0
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
  return db.transaction(async (tx) => {
    const result = await tx.execute<{ created: number }>(sql`
      with event as (select id, workspace_id, type, payload from events where ${workspace} id = ${ref.id}),
      ${createDeliveriesOfEvent(ref.workspaceId)}
      select count(*)::int as created from created_deliveries`);
    const created = result.rows[0]?.created ?? 0;
    if (created > 0)
      await tx.execute(sql`select pg_notify(${DELIVERY_CHANNEL}, ${ref.workspaceId ?? ''}::text)`);
    return created;
  });
}
