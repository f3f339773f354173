import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';

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
 * (docs/scaling.md). `quiet` (a caller whose changes notify nobody, Actor.quiet) makes none;
 * it is a parameter, not a session setting, so that every node of a sharded database sees it.
 * `bench/src/bare-write-sql.ts` sends the same text (the benchmark's parity check).
 */
export function createDeliveriesOfEvent(workspaceId: string, quiet: boolean) {
  return sql`created_deliveries as (
      insert into deliveries (workspace_id, id, webhook_id, event_id, status, next_attempt_at)
      select w.workspace_id, new_typeid('dlv'), w.id, e.id, 'PENDING', now()
      from event e
      join (select * from webhooks where workspace_id = ${workspaceId} and enabled for key share) w on w.workspace_id = e.workspace_id and w.enabled and w.events && array[e.type, '*']::text[]
      where (e.type not in ('record.updated', 'deal.updated', 'task.updated') or cardinality(w.fields) = 0
        or w.fields && array(select jsonb_array_elements_text(e.payload->'changedFields')))
        and not ${quiet}::boolean
      on conflict do nothing
      returning id
    )`;
}

/**
 * Creates the deliveries of stored events, as `appendEvent` does when it writes one, and wakes
 * the delivery workers when it made any; returns how many it made. An event whose deliveries
 * exist gets none more, and an id no event has any longer (events are kept 30 days) is passed
 * over. Serves the `fan_out_event` jobs that versions before the deliveries table became the
 * queue left behind, which name their event by id alone (docs/operations.md, "Upgrade
 * notes"): their workspaces are looked up first, then each workspace's events are fanned out
 * in one transaction of their own.
 */
export async function fanOutStoredEvents(db: Database, eventIds: readonly string[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const found = await db.execute<{ workspace_id: string; ids: string[] }>(sql`
    select workspace_id, array_agg(id) as ids from events
     where id = any(${sql.param([...eventIds])}::text[]) group by workspace_id`);
  let created = 0;
  for (const { workspace_id: workspaceId, ids } of found.rows) {
    created += await db.transaction(async (tx) => {
      const result = await tx.execute<{ created: number }>(sql`
        with event as (
          select id, workspace_id, type, payload from events
           where workspace_id = ${workspaceId} and id = any(${sql.param(ids)}::text[])
        ),
        ${createDeliveriesOfEvent(workspaceId, false)}
        select count(*)::int as created from created_deliveries`);
      const made = result.rows[0]?.created ?? 0;
      if (made > 0) await tx.execute(sql`select pg_notify(${DELIVERY_CHANNEL}, ${workspaceId}::text)`);
      return made;
    });
  }
  return created;
}
