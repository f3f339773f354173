import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { sealSecret } from '../shared/secret-box.ts';
import type { DomainServices } from '../shared/services.ts';
import { newWebhookSecret, PREVIOUS_SECRET_TTL_HOURS } from '../webhooks/secrets.ts';
import { loadWorkflow } from './find-workflows.ts';
import { serializeWorkflow } from './serialize.ts';

/**
 * A new signing secret, returned this once. The previous one is still accepted for 24 hours
 * so the caller can switch without failed calls.
 */
export async function rotateWorkflowSecret(
  db: Database,
  actor: Actor,
  id: string,
  services: Pick<DomainServices, 'baseUrl'>,
) {
  return db.transaction(async (tx) => {
    const current = await loadWorkflow(tx, actor, id, { lock: 'update' });
    const secret = newWebhookSecret();
    const w = schema.workflows;
    const [row] = await tx
      .update(w)
      .set({
        secret: sealSecret(secret),
        previousSecret: current.secret, // moved as stored (sealed)
        previousSecretExpiresAt: current.secret
          ? sql`now() + make_interval(hours => ${PREVIOUS_SECRET_TTL_HOURS})`
          : null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, current.id)))
      .returning();
    if (!row) missing('the row update … returning wrote (row)');
    await audit(tx, actor, {
      action: 'workflow.secret_rotated',
      target: { type: 'workflow', id: current.id },
    });
    return { ...serializeWorkflow(row, services.baseUrl), secret };
  });
}
