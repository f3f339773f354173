import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { sealSecret } from '../shared/secret-box.ts';
import { loadWebhook } from './load-webhook.ts';
import { newWebhookSecret, PREVIOUS_SECRET_TTL_HOURS } from './secrets.ts';
import { serializeWebhook } from './serialize.ts';

/**
 * Gives a subscription a new secret, shown once in the answer. The old one becomes
 * `previousSecret` and keeps signing for 24 hours (in `X-Service-Signature-Previous` and as
 * the second `webhook-signature`, "During a secret rotation" in docs/webhooks.md), so a
 * receiver can switch without rejecting deliveries. Rotating again within those hours
 * retires the older secret at once: only the secret just replaced stays valid. Both are
 * stored sealed; the previous one is moved as it is stored.
 */
export async function rotateWebhookSecret(db: Database, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    await loadWebhook(tx, actor, id, { lock: 'update' });
    const w = schema.webhooks;
    const secret = newWebhookSecret();
    const [row] = await tx
      .update(w)
      .set({
        previousSecret: sql`${w.secret}`,
        previousSecretExpiresAt: sql`now() + make_interval(hours => ${PREVIOUS_SECRET_TTL_HOURS})`,
        secret: sealSecret(secret),
        updatedAt: sql`now()`,
      })
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, id)))
      .returning();
    if (!row) missing('the row update … returning wrote (row)');
    await audit(tx, actor, { action: 'webhook.secret_rotated', target: { type: 'webhook', id } });
    return { ...serializeWebhook(row), secret };
  });
}
