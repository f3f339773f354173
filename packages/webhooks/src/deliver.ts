import http from 'node:http';
import https from 'node:https';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  capturedBecause,
  openHeaderValues,
  openSecret,
  type RetryPolicy,
  sandboxSends,
} from '@crm/domain';
import type { AllowList, Resolver } from './address-guard.ts';
import { sendRequest } from './send-request.ts';
import { previousSecretValid, signDelivery } from './sign.ts';

const USER_AGENT = 'crm-webhooks/1.0';

export interface DeliveryOptions {
  allow: AllowList;
  retry: RetryPolicy;
  /** Defaults of docs/webhooks.md, "Delivery, retries, disabling": 5 s to connect, 15 s in all. */
  connectTimeoutMs?: number;
  timeoutMs?: number;
  resolve?: Resolver;
}

export interface DeliveryAgents {
  http: http.Agent;
  https: https.Agent;
  destroy(): void;
}

/**
 * Keep-alive connections for deliveries, at most `maxSocketsPerHost` open to one host (and
 * port). An idle connection is closed after 4 s, before the usual 5 s of a receiver's
 * keep-alive timeout, so a request rarely meets a connection the receiver is closing.
 */
export function createDeliveryAgents(maxSocketsPerHost: number): DeliveryAgents {
  const settings = {
    keepAlive: true,
    maxSockets: maxSocketsPerHost,
    maxFreeSockets: maxSocketsPerHost,
    timeout: 4_000,
    scheduling: 'lifo' as const,
  };
  const agents = { http: new http.Agent(settings), https: new https.Agent(settings) };
  return {
    ...agents,
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/**
 * One attempt of a claimed delivery: the event's stored payload is sent as the exact bytes
 * that are signed, with the service and Standard Webhooks signatures. During a rotation the
 * previous secret signs too, in `X-Service-Signature-Previous` and as the second
 * `webhook-signature` ("Headers and signatures" in docs/webhooks.md). The secrets and custom
 * header values are stored sealed and opened here, just before signing. Throws only when one
 * of them cannot be opened (its key is not configured); otherwise the outcome is recorded by
 * the caller.
 */
export async function sendDelivery(
  delivery: ClaimedDelivery,
  event: NonNullable<ClaimedDelivery['event']>,
  options: DeliveryOptions,
  agents?: DeliveryAgents,
): Promise<AttemptOutcome> {
  const { webhook } = delivery;
  const body = Buffer.from(JSON.stringify(event.payload), 'utf8');
  const startedAt = new Date();
  // A sandbox keeps what it may not send (docs/operations.md, "Sandboxes"): the delivery is
  // CAPTURED, and shows the body it would have sent.
  if (!sandboxSends(delivery.sandbox, webhook.url))
    return { startedAt, durationMs: 0, captured: true, error: capturedBecause(webhook.url) };
  const secrets = {
    current: openSecret(webhook.secret),
    previous:
      webhook.previousSecret && previousSecretValid(webhook.previousSecretExpiresAt, startedAt)
        ? openSecret(webhook.previousSecret)
        : null,
  };
  const headers = openHeaderValues(webhook.headers);
  const agent = agents ? (/^https:/i.test(webhook.url) ? agents.https : agents.http) : undefined;
  const result = await sendRequest({
    url: webhook.url,
    method: 'POST',
    body,
    headers: {
      ...headers,
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
    agent,
  });
  if (!('status' in result)) return { startedAt, durationMs: result.durationMs, error: result.error };
  return {
    startedAt,
    durationMs: result.durationMs,
    status: result.status,
    headers: result.headers,
    excerpt: result.excerpt,
    error: result.status >= 200 && result.status < 300 ? undefined : `HTTP ${result.status}`,
  };
}
