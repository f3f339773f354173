import { createHmac } from 'node:crypto';

/**
 * Signatures of a delivery ("Headers and signatures" in docs/webhooks.md), over the exact
 * body bytes sent:
 * - `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256(body)>`, key = the UTF-8 bytes of
 *   the newest secret: always exactly one value, so a plain equality check or GitHub's
 *   verifier accepts it;
 * - `X-Service-Signature-Previous`, the same made with the previous secret, only while a
 *   rotation keeps that secret valid;
 * - the Standard Webhooks trio: `webhook-id` (the event id, the same on every retry),
 *   `webhook-timestamp` (this attempt, Unix seconds) and `webhook-signature`
 *   (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64 part of the
 *   `whsec_` secret): one signature per valid secret, newest first, space-separated, as
 *   that format defines.
 */
function serviceSignature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
}

function standardSignature(secret: string, id: string, timestamp: number, body: Buffer): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** The secrets that sign a delivery: the newest, and the previous one while it is still valid. */
export interface SigningSecrets {
  current: string;
  previous?: string | null | undefined;
}

export interface SignedHeaders {
  'X-Service-Signature': string;
  'X-Service-Signature-Previous'?: string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Whether a rotated-out secret still signs at `now`: only until its expiry (24 hours after
 * the rotation, "Managing subscriptions" in docs/webhooks.md), and not at that instant.
 */
export function previousSecretValid(expiresAt: Date | null | undefined, now: Date): boolean {
  return expiresAt != null && expiresAt.getTime() > now.getTime();
}

export function signDelivery(
  secrets: SigningSecrets,
  eventId: string,
  body: Buffer,
  now: Date = new Date(),
): SignedHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  const all = secrets.previous ? [secrets.current, secrets.previous] : [secrets.current];
  return {
    'X-Service-Signature': serviceSignature(secrets.current, body),
    ...(secrets.previous ? { 'X-Service-Signature-Previous': serviceSignature(secrets.previous, body) } : {}),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': all.map((s) => standardSignature(s, eventId, timestamp, body)).join(' '),
  };
}
