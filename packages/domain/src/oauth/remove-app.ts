import { type Database, schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { storedId } from './store.ts';
import { APP_GRANT, type removeAppInput } from './workspace-apps.ts';

/**
 * Removes an app of the workspace and every token it holds, in one transaction: its next
 * request is refused, in every process, since tokens are looked up on each request (access.ts).
 * Audited as `oauth_app.removed`.
 */
export async function removeApp(
  db: Database,
  actor: Actor,
  input: z.output<typeof removeAppInput>,
): Promise<{ clientId: string; removed: true }> {
  const t = schema.oauthModels;
  return db.transaction(async (tx) => {
    const [client] = await tx
      .delete(t)
      .where(
        and(
          eq(t.model, 'Client'),
          eq(t.id, storedId(input.clientId)),
          eq(t.workspaceId, actor.workspaceId),
          sql`${t.payload}->'grant_types' ? ${APP_GRANT}`,
        ),
      )
      .returning({ payload: t.payload });
    if (!client) throw notFound('App', input.clientId);
    await tx
      .delete(t)
      .where(and(eq(t.workspaceId, actor.workspaceId), sql`${t.payload}->>'clientId' = ${input.clientId}`));
    await audit(tx, actor, {
      action: 'oauth_app.removed',
      target: { type: 'oauth_client', id: input.clientId },
      details: { name: String(client.payload.client_name ?? '') },
    });
    return { clientId: input.clientId, removed: true as const };
  });
}
