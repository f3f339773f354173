import type { Database } from '@crm/db';
import {
  type AttemptVerdict,
  loadDeliveryToSend,
  type RetryPolicy,
  recordDeliveryAttempt,
} from '@crm/domain';
import type { AllowList, Resolver } from './address-guard.ts';
import { sendRequest } from './send-request.ts';
import { signDelivery } from './sign.ts';

export const USER_AGENT = 'crm-webhooks/1.0';

export interface DeliveryOptions {
  allow: AllowList;
  retry: RetryPolicy;
  /** Defaults of contract §6: 5 s to connect, 15 s in all. */
  connectTimeoutMs?: number;
  timeoutMs?: number;
  resolve?: Resolver;
}

/**
 * One attempt of a delivery (the `deliver_webhook` job): the event's stored payload is sent
 * as the exact bytes that are signed, with the service and Standard Webhooks signatures
 * (every valid secret signs during a rotation), then the attempt is recorded and the next
 * one scheduled. Returns null when there was nothing to send.
 */
export async function deliverWebhook(
  db: Database,
  deliveryId: string,
  options: DeliveryOptions,
): Promise<AttemptVerdict | null> {
  const target = await loadDeliveryToSend(db, deliveryId);
  if (!target) return null;
  const { webhook, event, delivery } = target;
  const body = Buffer.from(JSON.stringify(event.payload), 'utf8');
  const secrets = [webhook.secret];
  if (
    webhook.previousSecret &&
    webhook.previousSecretExpiresAt &&
    webhook.previousSecretExpiresAt.getTime() > Date.now()
  ) {
    secrets.push(webhook.previousSecret);
  }
  const startedAt = new Date();
  const result = await sendRequest({
    url: webhook.url,
    method: 'POST',
    body,
    headers: {
      ...webhook.headers,
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'X-Service-Event': event.type,
      'X-Service-Delivery': delivery.id,
      ...signDelivery(secrets, event.id, body, startedAt),
    },
    allow: options.allow,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    timeoutMs: options.timeoutMs ?? 15_000,
  });
  const outcome =
    'status' in result
      ? {
          startedAt,
          durationMs: result.durationMs,
          status: result.status,
          headers: result.headers,
          excerpt: result.excerpt,
          error: result.status >= 200 && result.status < 300 ? undefined : `HTTP ${result.status}`,
        }
      : { startedAt, durationMs: result.durationMs, error: result.error };
  return recordDeliveryAttempt(db, target, outcome, options.retry);
}
