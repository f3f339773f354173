import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { secretKeysFromEnv } from './env.ts';

/**
 * Secrets at rest (webhook and workflow signing secrets, custom header values, replayed
 * responses that show a secret): AES-256-GCM with a random 12-byte IV, stored as text
 *
 *   enc:v1:<keyId>:<iv, base64url>:<ciphertext followed by the 16-byte tag, base64url>
 *
 * `keyId` is derived from the key itself (8 base64url characters of a SHA-256 of it), so a
 * value names the key that sealed it and the keyring picks the right one to open it: the
 * current key seals, previous keys still open (see docs/operations.md, "Secrets at rest").
 * A stored value without the `enc:v1:` prefix is a value written before encryption and is
 * returned as it is, until the start-up step re-encrypts it.
 */

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export interface SecretKeys {
  /** The key that seals; 32 bytes as base64, base64url or hex text, or the bytes themselves. */
  current: string | Uint8Array;
  /** Older keys that still open values sealed with them (a list, or text separated by commas or spaces). */
  previous?: string | readonly (string | Uint8Array)[] | undefined;
}

interface Key {
  id: string;
  bytes: Buffer;
}

interface Keyring {
  current: Key;
  byId: Map<string, Key>;
}

let keyring: Keyring | undefined;

/**
 * Reads a key: 64 hex characters, or base64 / base64url of exactly 32 bytes. Anything else
 * throws, naming the problem but never the value.
 */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_BYTES) return bytes;
  }
  throw new Error('A secrets key must be 32 bytes written as base64, base64url or 64 hex characters');
}

/** The id a sealed value carries for this key: 8 base64url characters of a SHA-256 of it. */
export function secretKeyId(key: string | Uint8Array): string {
  const bytes = typeof key === 'string' ? parseSecretKey(key) : Buffer.from(key);
  return createHash('sha256').update('crm secrets key id\0').update(bytes).digest('base64url').slice(0, 8);
}

function toKey(key: string | Uint8Array): Key {
  const bytes = typeof key === 'string' ? parseSecretKey(key) : Buffer.from(key);
  if (bytes.length !== KEY_BYTES) throw new Error('A secrets key must be 32 bytes');
  return { id: secretKeyId(bytes), bytes };
}

function splitKeys(previous: SecretKeys['previous']): (string | Uint8Array)[] {
  if (previous === undefined) return [];
  if (typeof previous === 'string') return previous.split(/[\s,]+/).filter((part) => part.length > 0);
  return [...previous];
}

/**
 * Sets the keyring of this process: once at start-up (the server, the worker, the CLI), again
 * only to rotate in tests. `current` seals; it and every `previous` key open.
 */
export function configureSecretKeys(keys: SecretKeys): void {
  const current = toKey(keys.current);
  const byId = new Map<string, Key>([[current.id, current]]);
  for (const text of splitKeys(keys.previous)) {
    const key = toKey(text);
    if (!byId.has(key.id)) byId.set(key.id, key);
  }
  keyring = { current, byId };
}

/** Whether a keyring is set (by `configureSecretKeys`, or from `SECRETS_KEY` on first use). */
export function secretKeysConfigured(): boolean {
  return keyring !== undefined;
}

/** The id of the key that seals now. */
export function currentSecretKeyId(): string {
  return ring().current.id;
}

function ring(): Keyring {
  if (keyring) return keyring;
  // A process that never configured keys (a test, a script) takes them from the environment.
  const fromEnv = secretKeysFromEnv();
  if (fromEnv) {
    configureSecretKeys(fromEnv);
    return keyring as unknown as Keyring;
  }
  throw new Error('Secrets keys are not configured: call configureSecretKeys() or set SECRETS_KEY');
}

/** Whether a stored value is sealed (as opposed to plaintext written before encryption). */
export function isSealedSecret(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Whether a stored value is sealed with the current key (re-encryption leaves those alone). */
export function isSealedWithCurrentKey(stored: string): boolean {
  return stored.startsWith(`${PREFIX}${ring().current.id}:`);
}

/** Encrypts a secret under the current key; every call uses a fresh IV. */
export function sealSecret(plaintext: string): string {
  const { current } = ring();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', current.bytes, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${current.id}:${iv.toString('base64url')}:${body.toString('base64url')}`;
}

/**
 * The plaintext of a stored value. A sealed value needs the key it names (current or
 * previous) and must be intact: an unknown key or altered text throws. A value without the
 * prefix is plaintext from before encryption and is returned unchanged.
 */
export function openSecret(stored: string): string {
  if (!isSealedSecret(stored)) return stored;
  const parts = stored.slice(PREFIX.length).split(':');
  if (parts.length !== 3) throw new Error('A sealed secret is malformed');
  const [keyId, ivText, bodyText] = parts as [string, string, string];
  const key = ring().byId.get(keyId);
  if (!key) {
    throw new Error(
      `A sealed secret names key ${keyId}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`,
    );
  }
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new Error('A sealed secret is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, iv);
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(body.subarray(0, body.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new Error(`A sealed secret does not open with key ${keyId}: altered, or sealed with another key`);
  }
}

/** `sealSecret` of a value that may be absent. */
export function sealOptionalSecret(plaintext: string | null): string | null {
  return plaintext === null ? null : sealSecret(plaintext);
}

/** Seals every value of a header map; names stay readable. */
export function sealHeaderValues(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, sealSecret(value)]));
}

/** Opens every value of a stored header map (plaintext values pass through). */
export function openHeaderValues(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, openSecret(value)]));
}

/** A fresh random key as base64 text (the form SECRETS_KEY takes). */
export function generateSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}
