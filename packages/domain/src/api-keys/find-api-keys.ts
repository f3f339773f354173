import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { desc, eq } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import type { ApiKeyOutput } from './schemas.ts';
import { serializeApiKey } from './serialize.ts';

/** The workspace's keys, newest first, without their secrets (a short list: no paging). */
export async function findApiKeys(db: Database, actor: Actor): Promise<ApiKeyOutput[]> {
  const rows = await db
    .select()
    .from(schema.apiKeys)
    .where(eq(schema.apiKeys.workspaceId, actor.workspaceId))
    .orderBy(desc(schema.apiKeys.createdAt), desc(schema.apiKeys.id));
  return rows.map(serializeApiKey);
}
