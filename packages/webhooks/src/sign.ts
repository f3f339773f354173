import { createHmac } from 'node:crypto';

/**
 * Signatures of a delivery (contract §6), over the exact body bytes sent:
 * - `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256(body)>`, key = the secret's UTF-8 bytes;
 * - the Standard Webhooks trio: `webhook-id` (the event id, the same on every retry),
 *   `webhook-timestamp` (this attempt, Unix seconds) and `webhook-signature`
 *   (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64 part of the
 *   `whsec_` secret). During a rotation every secret signs, space-separated.
 */
export function serviceSignature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
}

export function standardSignature(secret: string, id: string, timestamp: number, body: Buffer): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeaders {
  'X-Service-Signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signDelivery(
  secrets: string[],
  eventId: string,
  body: Buffer,
  now: Date = new Date(),
): SignedHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'X-Service-Signature': secrets.map((s) => serviceSignature(s, body)).join(', '),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => standardSignature(s, eventId, timestamp, body)).join(' '),
  };
}
