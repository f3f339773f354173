import type { schema } from '@crm/db';
import type { ApiKeyOutput } from './schemas.ts';

type ApiKeyRow = typeof schema.apiKeys.$inferSelect;

export function serializeApiKey(row: ApiKeyRow): ApiKeyOutput {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    folderIds: row.folderIds ?? null,
    userId: row.userId,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
