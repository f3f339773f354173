import type { Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
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
 * workspaceId, occurredAt) are added here. When the workspace has an enabled webhook (or a
 * workflow triggered by this kind), the job that fans the event out (or starts the workflows)
 * is queued in the same statement, so a committed event is never lost and a rolled-back one
 * never sent.
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
  // Both follow-up jobs are queued by this statement: fanning the event out to webhook
  // subscriptions, and starting the workflows it triggers. Changes made by a workflow run
  // (marked by the transaction setting crm.workflow_run) start no workflows, so two
  // workflows cannot trigger each other forever.
  await tx.execute(sql`
    with event as (
      insert into events (workspace_id, id, type, payload, occurred_at)
      values (${workspaceId}, ${id}, ${type}, ${JSON.stringify(payload)}::jsonb, ${occurredAt.toISOString()}::timestamptz)
      returning id
    ), fan_out as (
      select graphile_worker.add_job('fan_out_event', json_build_object('eventId', event.id), max_attempts := 25)
      from event
      where exists (select 1 from webhooks where workspace_id = ${workspaceId} and enabled)
    ), start_workflows as (
      select graphile_worker.add_job('start_event_workflows', json_build_object('eventId', event.id), max_attempts := 25)
      from event
      where coalesce(current_setting('crm.workflow_run', true), '') = ''
        and exists (
          select 1 from workflows
           where workspace_id = ${workspaceId} and enabled
             and trigger_type = ${type} and trigger_type <> 'INCOMING_WEBHOOK')
    )
    select (select count(*) from fan_out) + (select count(*) from start_workflows) as jobs`);
  return { id, type, occurredAt: payload.occurredAt, payload };
}
