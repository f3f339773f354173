import { hash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'crm_';
/** The start of a sandbox's keys (docs/operations.md, "Sandboxes"): a key that cannot reach production at a glance. */
export const TEST_KEY_PREFIX = 'crm_test_';
/** Characters of the secret kept for display, `crm_` included. */
const DISPLAY_LENGTH = 12;

/** `crm_` (a sandbox's: `crm_test_`) + 32 random bytes in base62 (docs/api.md, "Keys and limits"). */
export function generateSecret(prefix: string = KEY_PREFIX): string {
  let value = 0n;
  for (const byte of randomBytes(32)) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return prefix + out.padStart(43, '0');
}

export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function displayPrefix(secret: string): string {
  return secret.slice(0, DISPLAY_LENGTH);
}
