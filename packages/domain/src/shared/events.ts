import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
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
 * Writes an event in the caller's transaction, so it exists exactly when the change does.
 * `payload` holds the type-specific fields; the common ones (id, event, workspaceId,
 * occurredAt) are added here.
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
  await tx.insert(schema.events).values({ workspaceId, id, type, payload, occurredAt });
  return { id, type, occurredAt: payload.occurredAt, payload };
}
