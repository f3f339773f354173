import type { webhooks } from './schema.d.ts';

/**
 * The body of a delivery, from the OpenAPI document's webhooks section: one type per event
 * kind, told apart by `event`. `WebhookEvent<'deal.stage_changed'>` is one kind's.
 */
export type WebhookEvent<Kind extends keyof webhooks = keyof webhooks> = {
  [K in Kind]: webhooks[K] extends { post: { requestBody: { content: { 'application/json': infer Body } } } }
    ? Body
    : never;
}[Kind];

/** What `verifyWebhook` checks. */
export interface VerifyWebhookOptions {
  /** The webhook's secret, `whsec_…`, the whole string as the service showed it. */
  secret: string;
  /**
   * The request body exactly as received: the raw bytes, or the string they decode to. Not a
   * body parsed and serialized again — `JSON.stringify(JSON.parse(body))` may differ by a
   * space or an escape, and then no signature matches.
   */
  body: string | Uint8Array | ArrayBuffer;
  /** The request's headers: a `Headers`, or an object such as Node's `req.headers` (any letter case). */
  headers: Headers | Record<string, string | readonly string[] | undefined>;
}

const SIGNATURE = 'x-service-signature';
const PREVIOUS_SIGNATURE = 'x-service-signature-previous';

/**
 * True when the delivery was signed with `secret`: `X-Service-Signature` is
 * `sha256=<lowercase hex HMAC-SHA256 of the body>`, keyed with the secret's UTF-8 bytes. During
 * the 24 hours after a secret rotation the previous secret signs `X-Service-Signature-Previous`
 * the same way, so a receiver still holding the old secret, or already holding the new one,
 * is accepted either way; both headers are checked. Signatures are compared in constant time.
 * Uses Web Crypto, so it runs in Node.js, Deno, Bun and edge runtimes alike.
 */
export async function verifyWebhook({ secret, body, headers }: VerifyWebhookOptions): Promise<boolean> {
  const candidates = [...headerValues(headers, SIGNATURE), ...headerValues(headers, PREVIOUS_SIGNATURE)];
  if (candidates.length === 0) return false;
  const expected = `sha256=${await hmacSha256Hex(secret, body)}`;
  let ok = false;
  // Every candidate is compared, matching or not, so the time taken tells nothing.
  for (const candidate of candidates) ok = constantTimeEqual(expected, candidate.trim()) || ok;
  return ok;
}

/** Lowercase hex HMAC-SHA256 of `body` keyed with the UTF-8 bytes of `secret`. */
export async function hmacSha256Hex(
  secret: string,
  body: string | Uint8Array | ArrayBuffer,
): Promise<string> {
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, bytes));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function headerValues(headers: VerifyWebhookOptions['headers'], name: string): string[] {
  if (headers instanceof Headers) {
    const value = headers.get(name);
    return value === null ? [] : [value];
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (typeof value === 'string') values.push(value);
    else values.push(...value);
  }
  return values;
}

/** Compares two strings in time that depends only on their lengths. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
