import { type EventType, eventTypes } from '@crm/constants';
import { type Executor, runNamedSql } from '@crm/db';
import { sql } from 'drizzle-orm';
import { createDeliveriesOfEvent, DELIVERY_CHANNEL } from '../webhooks/fan-out.ts';
import { newId } from './ids.ts';

/** The event kinds (docs/webhooks.md, "Event kinds"), defined with the other shared vocabularies in @crm/constants. */
export { type EventType, eventTypes };

export interface AppendedEvent {
  id: string;
  type: EventType;
  occurredAt: string;
  payload: Record<string, unknown>;
}

/** An event to write: its kind and its type-specific fields. */
export interface NewEvent {
  type: EventType;
  fields: Record<string, unknown>;
}

/**
 * The stored and delivered form of an event: the common fields (id, event, workspaceId,
 * occurredAt) first, then the type-specific ones. One builder for `appendEvent` and
 * `appendEvents`, so an event reads the same whichever wrote it.
 */
function buildEvent(workspaceId: string, { type, fields }: NewEvent): AppendedEvent {
  const id = newId('event');
  const occurredAt = new Date().toISOString();
  return { id, type, occurredAt, payload: { id, event: type, workspaceId, occurredAt, ...fields } };
}

/**
 * The rest of an event-writing statement after its `event` CTE (id, workspace_id, type,
 * payload): one pending delivery per enabled subscription that wants each event, and the ids
 * of the events that some enabled workflow of the workspace listens to. It reads and writes
 * rows of the one workspace only, so a sharded database runs it on the node that holds the
 * workspace (docs/scaling.md); what lives with the queue is done by `queueEventFollowUps`.
 */
function eventRows(workspaceId: string) {
  return sql`${createDeliveriesOfEvent(workspaceId)}
    select (select count(*) from created_deliveries)::int as deliveries,
      array(select event.id from event
             where exists (
               select 1 from workflows
                where workspace_id = ${workspaceId} and enabled
                  and trigger_type = event.type and trigger_type <> 'INCOMING_WEBHOOK')) as starts`;
}

/**
 * Wakes the delivery workers (on commit: a NOTIFY is sent only if the transaction commits)
 * when deliveries were made, naming the workspace, whose deliveries a worker on a sharded
 * database then claims without looking at every shard, and queues the job that starts the workflows an event triggers.
 * Changes made by a workflow run (marked by the transaction setting crm.workflow_run) start no
 * workflows, so two workflows cannot trigger each other forever. A second statement, sent only
 * when there is something to do, since the queue is not where a sharded workspace's rows are.
 */
async function queueEventFollowUps(
  tx: Executor,
  workspaceId: string,
  made: { deliveries: number; starts: string[] } | undefined,
): Promise<void> {
  if (!made || (made.deliveries === 0 && made.starts.length === 0)) return;
  await runNamedSql(
    tx,
    'queue_event_follow_ups',
    sql`
    with wake as (select pg_notify(${DELIVERY_CHANNEL}, ${workspaceId}::text) where ${made.deliveries}::int > 0),
    start_workflows as (
      select graphile_worker.add_job('start_event_workflows',
        json_build_object('eventId', e.id, 'workspaceId', ${workspaceId}::text), max_attempts := 25)
      from jsonb_array_elements_text(${JSON.stringify(made.starts)}::jsonb) as e(id)
      where coalesce(current_setting('crm.workflow_run', true), '') = ''
    )
    select (select count(*) from wake) + (select count(*) from start_workflows) as follow_ups`,
  );
}

/**
 * Writes an event in the caller's transaction, so it exists exactly when the change does
 * (contract §6). `payload` holds the type-specific fields; the common ones (id, event,
 * workspaceId, occurredAt) are added here. The same statement creates one pending delivery
 * per enabled subscription that wants the event (`*` matches every kind; a subscription
 * with `fields` gets `record.updated` only when one of those fields changed) and wakes the
 * delivery workers on commit, and queues the job that starts the workflows the event
 * triggers: a committed event is never lost and a rolled-back one never sent.
 */
export async function appendEvent(
  tx: Executor,
  workspaceId: string,
  type: EventType,
  fields: Record<string, unknown>,
): Promise<AppendedEvent> {
  const event = buildEvent(workspaceId, { type, fields });
  const rows = await runNamedSql<{ deliveries: number; starts: string[] }>(
    tx,
    'append_event',
    sql`
    with event as (
      insert into events (workspace_id, id, type, payload, occurred_at)
      values (${workspaceId}, ${event.id}, ${type}, ${JSON.stringify(event.payload)}::jsonb, ${event.occurredAt}::timestamptz)
      returning id, workspace_id, type, payload
    ), ${eventRows(workspaceId)}`,
  );
  await queueEventFollowUps(tx, workspaceId, rows[0]);
  return event;
}

/**
 * `appendEvent` for many events of one workspace in one statement (batch writes): the same
 * payloads, deliveries and workflow starts as that many `appendEvent` calls, in order.
 */
export async function appendEvents(
  tx: Executor,
  workspaceId: string,
  events: NewEvent[],
): Promise<AppendedEvent[]> {
  if (events.length === 0) return [];
  const built = events.map((event) => buildEvent(workspaceId, event));
  const rows = built.map((e) => ({ id: e.id, type: e.type, payload: e.payload, occurred_at: e.occurredAt }));
  const made = await runNamedSql<{ deliveries: number; starts: string[] }>(
    tx,
    'append_events',
    sql`
    with event as (
      insert into events (workspace_id, id, type, payload, occurred_at)
      select ${workspaceId}, e.id, e.type, e.payload, e.occurred_at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as e(id text, type text, payload jsonb, occurred_at timestamptz)
      returning id, workspace_id, type, payload
    ), ${eventRows(workspaceId)}`,
  );
  await queueEventFollowUps(tx, workspaceId, made[0]);
  return built;
}
