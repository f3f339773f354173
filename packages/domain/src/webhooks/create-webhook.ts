import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { sealHeaderValues, sealSecret } from '../shared/secret-box.ts';
import type { DomainServices } from '../shared/services.ts';
import { assertWorkspaceLimit } from '../shared/workspace-limit.ts';
import { type createWebhookInput, fieldsProblem, MAX_WEBHOOKS_PER_WORKSPACE } from './schemas.ts';
import { newWebhookSecret } from './secrets.ts';
import { serializeWebhook } from './serialize.ts';

/**
 * Creates a subscription (the REST-hooks "subscribe") and returns it with its secret, the
 * only time besides a rotation that the secret is shown. The URL is checked before the
 * transaction: resolving a name must not hold a transaction open. The secret and the custom
 * header values are stored sealed (`sealSecret`, docs/operations.md "Secrets at rest").
 */
export async function createWebhook(
  db: Executor,
  actor: Actor,
  input: z.infer<typeof createWebhookInput>,
  services: Pick<DomainServices, 'checkOutboundUrl'>,
) {
  const problem = fieldsProblem(input.events, input.fields ?? []);
  if (problem) throw invalid('fields', problem);
  await services.checkOutboundUrl(input.url);
  return db.transaction(async (tx) => {
    await assertWorkspaceLimit(
      tx,
      actor.workspaceId,
      schema.webhooks,
      MAX_WEBHOOKS_PER_WORKSPACE,
      'webhook subscriptions',
    );
    const secret = newWebhookSecret();
    const [row] = await tx
      .insert(schema.webhooks)
      .values({
        workspaceId: actor.workspaceId,
        id: newId('webhook'),
        url: input.url,
        events: input.events,
        fields: input.fields ?? [],
        headers: sealHeaderValues(input.headers ?? {}),
        description: input.description ?? '',
        enabled: input.enabled ?? true,
        secret: sealSecret(secret),
      })
      .returning();
    if (!row) missing('the row insert … returning wrote (row)');
    await audit(tx, actor, {
      action: 'webhook.created',
      target: { type: 'webhook', id: row.id },
      details: { url: row.url, events: row.events, fields: row.fields },
    });
    return { ...serializeWebhook(row), secret };
  });
}
