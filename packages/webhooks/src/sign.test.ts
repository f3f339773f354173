import { randomBytes } from 'node:crypto';
import { sign as githubSign, verify as githubVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { previousSecretValid, type SignedHeaders, signDelivery } from './sign.ts';

// Secrets as the service makes them: `whsec_` + base64 of 24 random bytes.
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

// Non-ASCII text, so the signature is checked over the UTF-8 bytes and not over characters.
const body = Buffer.from('{"id":"evt_1","record":{"title":"Zoë Ōkubo – 東京"}}', 'utf8');
const text = body.toString('utf8');

function standardHeaders(headers: SignedHeaders) {
  return {
    'webhook-id': headers['webhook-id'],
    'webhook-timestamp': headers['webhook-timestamp'],
    'webhook-signature': headers['webhook-signature'],
  };
}

/** What a receiver holding only `secret` concludes: GitHub-style and Standard Webhooks checks. */
async function receiverAccepts(secret: string, headers: SignedHeaders, header: keyof SignedHeaders) {
  const value = headers[header];
  const github = value !== undefined && (await githubVerify(secret, text, value));
  let standard = true;
  try {
    new Webhook(secret).verify(text, standardHeaders(headers));
  } catch {
    standard = false;
  }
  return { github, standard };
}

describe('signDelivery', () => {
  it('outside a rotation: one X-Service-Signature, no -Previous header, one webhook-signature', async () => {
    const secret = newSecret();
    const headers = signDelivery({ current: secret }, 'evt_1', body);
    expect(Object.keys(headers).sort()).toEqual([
      'X-Service-Signature',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
    ]);
    expect(headers['X-Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    // A receiver comparing with plain equality computes exactly this value.
    expect(headers['X-Service-Signature']).toBe(await githubSign(secret, text));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(await receiverAccepts(secret, headers, 'X-Service-Signature')).toEqual({
      github: true,
      standard: true,
    });
    expect(await receiverAccepts(newSecret(), headers, 'X-Service-Signature')).toEqual({
      github: false,
      standard: false,
    });
  });

  it('during a rotation: X-Service-Signature with the new secret, -Previous with the old, both in webhook-signature', async () => {
    const [oldSecret, current] = [newSecret(), newSecret()];
    const headers = signDelivery({ current, previous: oldSecret }, 'evt_1', body);
    expect(headers['X-Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(headers['X-Service-Signature']).toBe(await githubSign(current, text));
    expect(headers['X-Service-Signature-Previous']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(headers['X-Service-Signature-Previous']).toBe(await githubSign(oldSecret, text));

    // Standard Webhooks: newest first, separated by one space.
    const both = headers['webhook-signature'].split(' ');
    expect(both).toHaveLength(2);
    const alone = (secret: string) =>
      signDelivery({ current: secret }, 'evt_1', body, new Date(Number(headers['webhook-timestamp']) * 1000));
    expect(both).toEqual([alone(current)['webhook-signature'], alone(oldSecret)['webhook-signature']]);

    // A receiver that already has the new secret.
    expect(await receiverAccepts(current, headers, 'X-Service-Signature')).toEqual({
      github: true,
      standard: true,
    });
    // A receiver that still has the old one.
    expect(await receiverAccepts(oldSecret, headers, 'X-Service-Signature-Previous')).toEqual({
      github: true,
      standard: true,
    });
    // Each service header is made with its own secret only.
    expect(await githubVerify(oldSecret, text, headers['X-Service-Signature'])).toBe(false);
    expect(await githubVerify(current, text, headers['X-Service-Signature-Previous']!)).toBe(false);
    // Anyone else is refused, and a changed byte fails every check.
    expect(await receiverAccepts(newSecret(), headers, 'X-Service-Signature')).toEqual({
      github: false,
      standard: false,
    });
    const flipped = Buffer.from(body);
    flipped[2] = flipped[2]! ^ 1;
    expect(await githubVerify(current, flipped.toString('utf8'), headers['X-Service-Signature'])).toBe(false);
    expect(() => new Webhook(oldSecret).verify(flipped.toString('utf8'), standardHeaders(headers))).toThrow();
  });

  it('signs webhook-id.webhook-timestamp.body with the timestamp of the attempt', () => {
    const at = new Date('2026-11-21T09:30:00.999Z');
    const headers = signDelivery({ current: newSecret() }, 'evt_42', body, at);
    expect(headers['webhook-id']).toBe('evt_42');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
  });
});

describe('previousSecretValid', () => {
  const now = new Date('2026-11-21T09:30:00.000Z');

  it('is true before the expiry and false at it, after it, or without one', () => {
    expect(previousSecretValid(new Date(now.getTime() + 1), now)).toBe(true);
    expect(previousSecretValid(now, now)).toBe(false);
    expect(previousSecretValid(new Date(now.getTime() - 1), now)).toBe(false);
    expect(previousSecretValid(null, now)).toBe(false);
  });
});
