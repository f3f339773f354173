import type { schema } from '@crm/db';
import { openHeaderValues } from '../shared/secret-box.ts';
import type { DeliveryOutput, WebhookOutput } from './schemas.ts';
import { maskHeaders } from './secrets.ts';

export type DeliveryRow = typeof schema.deliveries.$inferSelect;
export type WebhookRow = typeof schema.webhooks.$inferSelect;

export type DeliveryAttemptRow = typeof schema.deliveryAttempts.$inferSelect;

/** A subscription as the API shows it: never the secret, custom header values (stored sealed) masked. */
export function serializeWebhook(row: WebhookRow): WebhookOutput {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    fields: row.fields,
    headers: maskHeaders(openHeaderValues(row.headers)),
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function serializeDelivery(
  row: DeliveryRow,
  eventType: string | null,
  attempts: DeliveryAttemptRow[],
  payload: unknown = null,
): DeliveryOutput {
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    event: eventType,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    redeliveryOf: row.redeliveryOf,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: a.startedAt.toISOString(),
      durationMs: a.durationMs,
      responseStatus: a.responseStatus,
      error: a.error,
      responseExcerpt: a.responseExcerpt,
    })),
    body: row.status === 'CAPTURED' ? (payload ?? null) : null,
  };
}
