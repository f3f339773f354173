import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  configureSecretKeys,
  currentSecretKeyId,
  generateSecretKey,
  isSealedSecret,
  isSealedWithCurrentKey,
  openHeaderValues,
  openSecret,
  parseSecretKey,
  sealHeaderValues,
  sealSecret,
  secretKeyId,
} from './secret-box.ts';

const keyA = generateSecretKey();
const keyB = randomBytes(32).toString('hex');
const keyC = randomBytes(32).toString('base64url');

afterAll(() => {
  // Other tests of this file's process take the keys from the environment again.
  if (process.env.SECRETS_KEY) configureSecretKeys({ current: process.env.SECRETS_KEY });
});

describe('secret box', () => {
  it('seals into enc:v1:<keyId>:<iv>:<body> and opens the same text again', () => {
    configureSecretKeys({ current: keyA });
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const sealed = sealSecret(secret);
    expect(sealed).toMatch(/^enc:v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(sealed.split(':')[2]).toBe(secretKeyId(keyA));
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(openSecret(sealed)).toBe(secret);
    expect(openSecret(sealSecret(''))).toBe('');
    expect(openSecret(sealSecret('ünïcødé ✓'))).toBe('ünïcødé ✓');
  });

  it('uses a fresh IV every time', () => {
    configureSecretKeys({ current: keyA });
    expect(sealSecret('same')).not.toBe(sealSecret('same'));
  });

  it('refuses a value sealed with a key it does not have', () => {
    configureSecretKeys({ current: keyA });
    const sealed = sealSecret('token');
    configureSecretKeys({ current: keyB });
    expect(() => openSecret(sealed)).toThrow(/neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS/);
  });

  it('refuses a value sealed with another key under the same id (wrong key)', () => {
    configureSecretKeys({ current: keyA });
    const sealed = sealSecret('token');
    const [, , , iv, body] = sealed.split(':');
    configureSecretKeys({ current: keyB });
    const forged = `enc:v1:${currentSecretKeyId()}:${iv}:${body}`;
    expect(() => openSecret(forged)).toThrow(/does not open/);
  });

  it('refuses altered text', () => {
    configureSecretKeys({ current: keyA });
    const sealed = sealSecret('a webhook secret');
    const parts = sealed.split(':');
    const body = Buffer.from(parts[4] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    const tampered = [...parts.slice(0, 4), body.toString('base64url')].join(':');
    expect(() => openSecret(tampered)).toThrow(/does not open/);
    const iv = Buffer.from(parts[3] as string, 'base64url');
    iv[0] = (iv[0] as number) ^ 1;
    expect(() => openSecret([...parts.slice(0, 3), iv.toString('base64url'), parts[4]].join(':'))).toThrow(
      /does not open/,
    );
    expect(() => openSecret(`${parts.slice(0, 4).join(':')}:`)).toThrow(/malformed/);
    expect(() => openSecret('enc:v1:abc')).toThrow(/malformed/);
  });

  it('opens values of previous keys and seals with the current one', () => {
    configureSecretKeys({ current: keyA });
    const old = sealSecret('old secret');
    configureSecretKeys({ current: keyB, previous: `${keyC}, ${keyA}` });
    expect(openSecret(old)).toBe('old secret');
    expect(isSealedWithCurrentKey(old)).toBe(false);
    const fresh = sealSecret('new secret');
    expect(isSealedWithCurrentKey(fresh)).toBe(true);
    expect(fresh.split(':')[2]).toBe(secretKeyId(keyB));
    configureSecretKeys({ current: keyB, previous: [keyA] });
    expect(openSecret(old)).toBe('old secret');
  });

  it('passes plaintext written before encryption through unchanged', () => {
    configureSecretKeys({ current: keyA });
    expect(openSecret('whsec_plain')).toBe('whsec_plain');
    expect(isSealedSecret('whsec_plain')).toBe(false);
    expect(openHeaderValues({ Authorization: 'Bearer abc', 'X-Sealed': sealSecret('s3cret') })).toEqual({
      Authorization: 'Bearer abc',
      'X-Sealed': 's3cret',
    });
  });

  it('seals each header value and keeps the names', () => {
    configureSecretKeys({ current: keyA });
    const sealed = sealHeaderValues({ 'X-Token': 'tok_123456789' });
    expect(Object.keys(sealed)).toEqual(['X-Token']);
    expect(sealed['X-Token']).toMatch(/^enc:v1:/);
    expect(openHeaderValues(sealed)).toEqual({ 'X-Token': 'tok_123456789' });
  });

  it('reads keys as base64, base64url or hex of 32 bytes, and nothing else', () => {
    const bytes = randomBytes(32);
    expect(parseSecretKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('base64url'))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretKey(` ${bytes.toString('hex')}\n`)).toEqual(bytes);
    expect(() => parseSecretKey(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => parseSecretKey('correct horse battery staple')).toThrow(/32 bytes/);
    expect(() => configureSecretKeys({ current: 'short' })).toThrow(/32 bytes/);
  });
});
