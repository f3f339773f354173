import type { Executor } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import { createDeliveriesOfEvent, wakeDeliveryWorkers } from '../webhooks/fan-out.ts';
import { newId } from './ids.ts';

/** Event kinds of contract §6. */
export const eventTypes = [
  'record.created',
  'record.updated',
  'record.trashed',
  'record.restored',
  'deal.created',
  'deal.updated',
  'deal.stage_changed',
  'task.created',
  'task.completed',
] as const;

export type EventType = (typeof eventTypes)[number];

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
 * payload): the webhook deliveries, and the job that starts the workflows the event
 * triggers, for every event row. Changes made by a workflow run (marked by the transaction
 * setting crm.workflow_run) start no workflows, so two workflows cannot trigger each other
 * forever. `type` is the kind the workflows must listen to (the event row's own).
 */
function eventFollowUps(workspaceId: string, type: SQL) {
  return sql`${createDeliveriesOfEvent},
    wake as (${wakeDeliveryWorkers}),
    start_workflows as (
      select graphile_worker.add_job('start_event_workflows', json_build_object('eventId', event.id, 'workspaceId', event.workspace_id), max_attempts := 25)
      from event
      where coalesce(current_setting('crm.workflow_run', true), '') = ''
        and exists (
          select 1 from workflows
           where workspace_id = ${workspaceId} and enabled
             and trigger_type = ${type} and trigger_type <> 'INCOMING_WEBHOOK')
    )
    select (select count(*) from wake) + (select count(*) from start_workflows) as follow_ups`;
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
  await tx.execute(sql`
    with event as (
      insert into events (workspace_id, id, type, payload, occurred_at)
      values (${workspaceId}, ${event.id}, ${type}, ${JSON.stringify(event.payload)}::jsonb, ${event.occurredAt}::timestamptz)
      returning id, workspace_id, type, payload
    ), ${eventFollowUps(workspaceId, sql`${type}`)}`);
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
  await tx.execute(sql`
    with event as (
      insert into events (workspace_id, id, type, payload, occurred_at)
      select ${workspaceId}, e.id, e.type, e.payload, e.occurred_at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as e(id text, type text, payload jsonb, occurred_at timestamptz)
      returning id, workspace_id, type, payload
    ), ${eventFollowUps(workspaceId, sql`event.type`)}`);
  return built;
}
