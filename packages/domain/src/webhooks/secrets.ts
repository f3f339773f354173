import { randomBytes } from 'node:crypto';
import { invalid } from '../shared/errors.ts';
import { MASKED_VALUE } from './schemas.ts';

/** Rotation keeps the previous secret signing this long, so receivers can switch without losing events. */
export const PREVIOUS_SECRET_TTL_HOURS = 24;

/** A signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * How a custom header value is shown: it may be a token, so only its first 4 characters, and
 * nothing of a value shorter than 12 (4 characters of a short token are too much of it).
 */
export function maskHeaderValue(value: string): string {
  return value.length >= 12 ? `${value.slice(0, 4)}…` : '…';
}

export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskHeaderValue(value)]));
}

/**
 * PATCH replaces the custom headers, but a client that sends back what GET showed must not
 * overwrite a token with its mask: a value equal to the mask of the stored value of the same
 * header (names ignore case) keeps the stored value. Any other masked-looking value is a 400
 * (stored values are ASCII, so `…` only ever comes from a mask).
 */
export function mergeMaskedHeaders(
  given: Record<string, string>,
  stored: Record<string, string>,
): Record<string, string> {
  const byName = new Map(Object.entries(stored).map(([name, value]) => [name.toLowerCase(), value]));
  return Object.fromEntries(
    Object.entries(given).map(([name, value]) => {
      if (!MASKED_VALUE.test(value)) return [name, value];
      const current = byName.get(name.toLowerCase());
      if (current === undefined || value !== maskHeaderValue(current)) {
        throw invalid(
          `headers.${name}`,
          'is a masked value that matches no stored header; send the full value',
        );
      }
      return [name, current];
    }),
  );
}
