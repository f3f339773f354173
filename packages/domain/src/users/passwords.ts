import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';

/**
 * argon2id with the OWASP minimum (19 MiB, 2 passes, 1 lane): about 30 ms a hash here,
 * slow enough to make guessing expensive and fast enough for a sign-in form. The library's
 * default algorithm is argon2id (its `Algorithm` is a const enum, which this build cannot
 * import); the hash's `$argon2id$` prefix is asserted by the tests.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const passwordInput = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(200, 'must be at most 200 characters');

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A hash the library cannot read never matches.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash, so that an unknown email costs the same time as a
 * wrong password and sign-in does not reveal which addresses have accounts.
 */
export async function spendVerificationTime(password: string): Promise<void> {
  dummyHash ??= hashPassword('a password nobody has');
  await verifyPassword(await dummyHash, password);
}
