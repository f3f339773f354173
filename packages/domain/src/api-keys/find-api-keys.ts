import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { desc, eq } from 'drizzle-orm';
import type { ApiKeyOutput } from './schemas.ts';
import { serializeApiKey } from './serialize.ts';

export async function findApiKeys(db: Database, workspaceId: string): Promise<ApiKeyOutput[]> {
  const rows = await db
    .select()
    .from(schema.apiKeys)
    .where(eq(schema.apiKeys.workspaceId, workspaceId))
    .orderBy(desc(schema.apiKeys.createdAt), desc(schema.apiKeys.id));
  return rows.map(serializeApiKey);
}
