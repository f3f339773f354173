import { type Database, schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { grantScopes, type revokeConnectedAppInput } from './connected-apps.ts';

/**
 * Revokes what the caller allowed an app: the grant and every code and token issued under it
 * go at once, so the app's next request is refused. Audited as `oauth_app.revoked`.
 */
export async function revokeConnectedApp(
  db: Database,
  actor: Actor,
  input: z.output<typeof revokeConnectedAppInput>,
): Promise<{ grantId: string; revoked: true }> {
  const t = schema.oauthModels;
  return db.transaction(async (tx) => {
    const [grant] = await tx
      .delete(t)
      .where(
        and(
          eq(t.model, 'Grant'),
          eq(t.grantId, input.grantId),
          eq(t.workspaceId, actor.workspaceId),
          eq(t.userId, actor.userId),
        ),
      )
      .returning({ payload: t.payload });
    if (!grant) throw notFound('Connected app', input.grantId);
    await tx.delete(t).where(eq(t.grantId, input.grantId));
    await audit(tx, actor, {
      action: 'oauth_app.revoked',
      target: { type: 'oauth_client', id: String(grant.payload.clientId ?? '') },
      details: { grantId: input.grantId, scopes: grantScopes(grant.payload) },
    });
    return { grantId: input.grantId, revoked: true as const };
  });
}
