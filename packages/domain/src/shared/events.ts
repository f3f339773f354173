import type { Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
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
  const id = newId('event');
  const occurredAt = new Date();
  const payload = { id, event: type, workspaceId, occurredAt: occurredAt.toISOString(), ...fields };
  // Both follow-ups happen in this statement: the webhook deliveries, and the job that
  // starts the workflows the event triggers. Changes made by a workflow run
  // (marked by the transaction setting crm.workflow_run) start no workflows, so two
  // workflows cannot trigger each other forever.
  await tx.execute(sql`
    with event as (
      insert into events (workspace_id, id, type, payload, occurred_at)
      values (${workspaceId}, ${id}, ${type}, ${JSON.stringify(payload)}::jsonb, ${occurredAt.toISOString()}::timestamptz)
      returning id, workspace_id, type, payload
    ), ${createDeliveriesOfEvent},
    wake as (${wakeDeliveryWorkers}),
    start_workflows as (
      select graphile_worker.add_job('start_event_workflows', json_build_object('eventId', event.id), max_attempts := 25)
      from event
      where coalesce(current_setting('crm.workflow_run', true), '') = ''
        and exists (
          select 1 from workflows
           where workspace_id = ${workspaceId} and enabled
             and trigger_type = ${type} and trigger_type <> 'INCOMING_WEBHOOK')
    )
    select (select count(*) from wake) + (select count(*) from start_workflows) as follow_ups`);
  return { id, type, occurredAt: payload.occurredAt, payload };
}
