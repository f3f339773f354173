import { createHmac } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from './schema.d.ts';
import { verifyWebhook, type WebhookEvent } from './webhooks.ts';

const secret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';
const previous = 'whsec_b2xkLW9sZC1vbGQtb2xkLW9sZC1vbGQtb2xk';
const body = '{"id":"evt_1","type":"record.created","data":{"title":"Ada — Lovelace"}}';

/** As the service signs: lowercase hex HMAC-SHA256 of the body bytes, keyed with the secret's UTF-8 bytes. */
const sign = (key: string, payload: string | Buffer) =>
  `sha256=${createHmac('sha256', Buffer.from(key, 'utf8')).update(payload).digest('hex')}`;

describe('verifyWebhook', () => {
  it('accepts a body signed with the secret, as a string, bytes, an ArrayBuffer, with Headers or Node headers', async () => {
    const signature = sign(secret, body);
    const bytes = new TextEncoder().encode(body);
    expect(await verifyWebhook({ secret, body, headers: { 'x-service-signature': signature } })).toBe(true);
    expect(await verifyWebhook({ secret, body: bytes, headers: { 'X-Service-Signature': signature } })).toBe(
      true,
    );
    expect(
      await verifyWebhook({
        secret,
        body: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
        headers: new Headers({ 'X-Service-Signature': signature }),
      }),
    ).toBe(true);
  });

  it('refuses a tampered body, even one that parses to the same JSON', async () => {
    const headers = { 'x-service-signature': sign(secret, body) };
    expect(await verifyWebhook({ secret, body: body.replace('Ada', 'Eve'), headers })).toBe(false);
    expect(await verifyWebhook({ secret, body: JSON.stringify(JSON.parse(body), null, 1), headers })).toBe(
      false,
    );
    expect(await verifyWebhook({ secret, body: `${body}\n`, headers })).toBe(false);
  });

  it('refuses a signature made with another secret, a missing or malformed header', async () => {
    expect(
      await verifyWebhook({ secret, body, headers: { 'x-service-signature': sign('whsec_other', body) } }),
    ).toBe(false);
    expect(await verifyWebhook({ secret, body, headers: {} })).toBe(false);
    const hex = sign(secret, body).slice('sha256='.length);
    for (const value of [hex, `sha256=${hex.toUpperCase()}`, `sha1=${hex}`, 'sha256=', '']) {
      expect(await verifyWebhook({ secret, body, headers: { 'x-service-signature': value } })).toBe(false);
    }
  });

  it('during a rotation accepts the previous secret through X-Service-Signature-Previous, and the new one through X-Service-Signature', async () => {
    const headers = {
      'x-service-signature': sign(secret, body),
      'x-service-signature-previous': sign(previous, body),
    };
    expect(await verifyWebhook({ secret, body, headers })).toBe(true);
    expect(await verifyWebhook({ secret: previous, body, headers })).toBe(true);
    expect(await verifyWebhook({ secret: 'whsec_neither', body, headers })).toBe(false);
    // Outside a rotation the old secret no longer signs anything.
    expect(
      await verifyWebhook({
        secret: previous,
        body,
        headers: { 'x-service-signature': headers['x-service-signature'] },
      }),
    ).toBe(false);
  });

  it('types a delivery body by its event kind', () => {
    expectTypeOf<WebhookEvent<'record.created'>>().toEqualTypeOf<
      components['schemas']['RecordCreatedEvent']
    >();
    const narrow = (event: WebhookEvent) => (event.event === 'deal.stage_changed' ? event : undefined);
    expectTypeOf(narrow).returns.toEqualTypeOf<WebhookEvent<'deal.stage_changed'> | undefined>();
  });
});
