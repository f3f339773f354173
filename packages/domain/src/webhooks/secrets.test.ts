import { describe, expect, it } from 'vitest';
import { expectDomainErrorSync } from '../testing/fixtures.ts';
import { maskHeaderValue, mergeMaskedHeaders, newWebhookSecret } from './secrets.ts';

describe('webhook secrets and masked headers', () => {
  it('makes Standard Webhooks secrets: whsec_ and base64 of 24 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('shows 4 characters of a long value and nothing of a short one', () => {
    expect(maskHeaderValue('Bearer abcdefgh')).toBe('Bear…');
    expect(maskHeaderValue('short-token')).toBe('…');
  });

  it('keeps a stored value sent back masked, takes new values, and refuses a mask of nothing stored', () => {
    const stored = { Authorization: 'Bearer abcdefgh', 'X-Pin': '1234' };
    expect(mergeMaskedHeaders({ authorization: 'Bear…', 'X-Pin': '…', 'X-New': 'v' }, stored)).toEqual({
      authorization: 'Bearer abcdefgh',
      'X-Pin': '1234',
      'X-New': 'v',
    });
    const error = expectDomainErrorSync(
      () => mergeMaskedHeaders({ Authorization: 'Xyz…' }, stored),
      'VALIDATION_FAILED',
    );
    expect(error.details).toEqual([{ path: 'headers.Authorization', message: expect.any(String) }]);
  });
});
