import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import { changeAuth } from './auth-changes.ts';
import type { ApiKeyOutput } from './schemas.ts';
import { serializeApiKey } from './serialize.ts';

/**
 * Revokes a key. It is refused from the next request on, in every process: the revocation
 * reaches the key caches through `changeAuth` (docs/operations.md, "API keys in memory").
 */
export async function revokeApiKey(db: Database, actor: Actor, id: string): Promise<ApiKeyOutput> {
  if (!isId('apiKey', id)) throw notFound('API key', id);
  const k = schema.apiKeys;
  return changeAuth(db, { keyId: id }, async (tx) => {
    const [row] = await tx
      .update(k)
      .set({ revokedAt: sql`coalesce(${k.revokedAt}, now())` })
      .where(and(eq(k.workspaceId, actor.workspaceId), eq(k.id, id)))
      .returning();
    if (!row) throw notFound('API key', id);
    await audit(tx, actor, {
      action: 'api_key.revoked',
      target: { type: 'api_key', id },
      details: { name: row.name },
    });
    return serializeApiKey(row);
  });
}
