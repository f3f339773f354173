import { type Database, schema } from '@crm/db';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { APP_GRANT, type WorkspaceAppOutput } from './workspace-apps.ts';

/** The apps registered for the workspace (workspace-apps.ts), newest first; never their secrets. */
export async function findApps(db: Database, actor: Actor): Promise<{ data: WorkspaceAppOutput[] }> {
  const t = schema.oauthModels;
  const rows = await db
    .select({ payload: t.payload, userId: t.userId, createdAt: t.createdAt })
    .from(t)
    .where(
      and(
        eq(t.model, 'Client'),
        eq(t.workspaceId, actor.workspaceId),
        sql`${t.payload}->'grant_types' ? ${APP_GRANT}`,
      ),
    )
    .orderBy(desc(t.createdAt))
    .limit(200);
  return {
    data: rows.map((row) => ({
      clientId: String(row.payload.client_id),
      name: String(row.payload.client_name),
      scopes: String(row.payload.scope ?? '')
        .split(' ')
        .filter(Boolean),
      createdAt: row.createdAt.toISOString(),
      createdBy: { id: row.userId ?? '', name: String(row.payload.created_by_name ?? '') },
    })),
  };
}
