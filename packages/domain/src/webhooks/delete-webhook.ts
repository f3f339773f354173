import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { loadWebhook } from './load-webhook.ts';

/**
 * Deletes a subscription for good (the REST-hooks "unsubscribe"). Its deliveries and their
 * attempts go with it (foreign keys cascade); a queued send finds nothing and ends.
 */
export async function deleteWebhook(db: Executor, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    await loadWebhook(tx, actor, id, { lock: 'update' });
    const w = schema.webhooks;
    const [gone] = await tx
      .delete(w)
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, id)))
      .returning({ url: w.url });
    await audit(tx, actor, {
      action: 'webhook.deleted',
      target: { type: 'webhook', id },
      details: { url: gone?.url },
    });
    return { id, deleted: true as const };
  });
}
