/**
 * What the domain reads of the process's environment by itself: nothing but the keys for
 * secrets at rest (docs/operations.md, "Secrets at rest"), for a process that never called
 * `configureSecretKeys` (a test, a script). The server and the CLI hand their keys over.
 */
export function secretKeysFromEnv(): { current: string; previous: string | undefined } | undefined {
  const current = process.env.SECRETS_KEY;
  return current ? { current, previous: process.env.SECRETS_KEY_PREVIOUS } : undefined;
}
