import type { Database } from '@crm/db';
import { KEY_USE_PRECISION_MS, logKeyUses } from './log-key-uses.ts';
import { hashSecret } from './secrets.ts';
import {
  type AuthenticatedKey,
  MISSING_KEY_MESSAGE,
  unauthorizedKey,
  verifyApiKey,
} from './verify-api-key.ts';

/**
 * Resolves a bearer secret to its key, workspace and user with one lookup, writing
 * `lastUsedAt` when it is older than a minute. The server goes through `ApiKeyCache`
 * instead, which keeps verified keys in memory and writes their uses in batches.
 */
export async function authenticateApiKey(
  db: Database,
  secret: string | undefined,
): Promise<AuthenticatedKey> {
  if (!secret) throw unauthorizedKey(MISSING_KEY_MESSAGE);
  const now = Date.now();
  const verified = await verifyApiKey(db, hashSecret(secret), now);
  if (verified.lastUsedAt === null || now - verified.lastUsedAt >= KEY_USE_PRECISION_MS) {
    const { keyId, workspaceId } = verified.key;
    await logKeyUses(db, [{ keyId, workspaceId, at: new Date(now) }]);
  }
  return verified.key;
}
