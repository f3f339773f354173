import { type Database, schema } from '@crm/db';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { type ConnectedAppOutput, grantScopes } from './connected-apps.ts';

/**
 * The apps the caller allowed to act for them in this workspace over OAuth (docs/mcp.md,
 * "OAuth"), newest first: one per grant, with the app's registered name and the scopes.
 */
export async function findConnectedApps(db: Database, actor: Actor): Promise<{ data: ConnectedAppOutput[] }> {
  const t = schema.oauthModels;
  const rows = await db
    .select({
      grantId: t.grantId,
      payload: t.payload,
      createdAt: t.createdAt,
      expiresAt: t.expiresAt,
      clientName: sql<string | null>`(select c.payload->>'client_name' from oauth_models c
        where c.model = 'Client' and c.id = encode(sha256(convert_to(oauth_models.payload->>'clientId', 'UTF8')), 'hex'))`,
    })
    .from(t)
    .where(
      and(
        eq(t.model, 'Grant'),
        eq(t.workspaceId, actor.workspaceId),
        eq(t.userId, actor.userId),
        sql`(${t.expiresAt} is null or ${t.expiresAt} > now())`,
      ),
    )
    .orderBy(desc(t.createdAt))
    .limit(200);
  return {
    data: rows.map((row) => ({
      grantId: row.grantId ?? '',
      clientId: String(row.payload.clientId ?? ''),
      clientName: row.clientName ?? String(row.payload.clientId ?? ''),
      scopes: grantScopes(row.payload),
      authorizedAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
    })),
  };
}
