import { type Database, schema } from '@crm/db';
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { isScope } from '../api-keys/scopes.ts';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { instantOutput } from '../shared/schemas.ts';

export const connectedAppOutput = z
  .object({
    grantId: z.string(),
    clientId: z.string(),
    clientName: z.string(),
    scopes: z.array(z.string()).meta({ description: 'What the app may do, as you allowed it.' }),
    authorizedAt: instantOutput(),
    expiresAt: instantOutput().nullable(),
  })
  .meta({ id: 'ConnectedApp' });

export type ConnectedAppOutput = z.infer<typeof connectedAppOutput>;

export const revokeConnectedAppInput = z.strictObject({ grantId: z.string().min(1).max(200) });

/** The scopes of a grant: those of the resources it covers that the service knows. */
export function grantScopes(payload: Record<string, unknown>): string[] {
  const resources = (payload.resources ?? {}) as Record<string, string>;
  const scopes = new Set<string>();
  for (const value of Object.values(resources))
    for (const word of String(value).split(' ')) if (isScope(word)) scopes.add(word);
  return [...scopes].sort();
}

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
