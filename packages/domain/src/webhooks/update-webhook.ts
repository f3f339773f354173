import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { openHeaderValues, sealHeaderValues } from '../shared/secret-box.ts';
import type { DomainServices } from '../shared/services.ts';
import { loadWebhook } from './load-webhook.ts';
import { fieldsProblem, type updateWebhookInput } from './schemas.ts';
import { mergeMaskedHeaders } from './secrets.ts';
import type { WebhookRow } from './serialize.ts';
import { serializeWebhook } from './serialize.ts';

type Changes = Partial<
  Pick<
    WebhookRow,
    'url' | 'events' | 'fields' | 'headers' | 'description' | 'enabled' | 'disabledReason' | 'failingSince'
  >
>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * PATCH a subscription: fields not given stay, `headers` replaces the set. A new URL is
 * checked again. Enabling clears `disabledReason` and the failure clock (`failingSince`), so
 * a re-enabled subscription gets its full 5 days again. A PATCH that changes nothing writes
 * nothing.
 */
export async function updateWebhook(
  db: Executor,
  actor: Actor,
  input: z.infer<typeof updateWebhookInput>,
  services: Pick<DomainServices, 'checkOutboundUrl'>,
) {
  if (input.url !== undefined) {
    await loadWebhook(db, actor, input.id); // an unknown id is a 404 before the URL is judged
    await services.checkOutboundUrl(input.url);
  }
  return db.transaction(async (tx) => {
    const current = await loadWebhook(tx, actor, input.id, { lock: 'update' });
    const events = input.events ?? current.events;
    const fields = input.fields ?? current.fields;
    const problem = fieldsProblem(events, fields);
    if (problem) throw invalid('fields', problem);

    const changes: Changes = {};
    if (input.url !== undefined && input.url !== current.url) changes.url = input.url;
    if (!same(events, current.events)) changes.events = events;
    if (!same(fields, current.fields)) changes.fields = fields;
    if (input.headers !== undefined) {
      // Stored values are sealed: masks are compared, and changes seen, on the plaintext.
      const stored = openHeaderValues(current.headers);
      const headers = mergeMaskedHeaders(input.headers, stored);
      if (!same(headers, stored)) changes.headers = sealHeaderValues(headers);
    }
    if (input.description !== undefined && input.description !== current.description) {
      changes.description = input.description;
    }
    if (input.enabled === true && (!current.enabled || current.disabledReason !== null)) {
      Object.assign(changes, { enabled: true, disabledReason: null, failingSince: null });
    }
    if (input.enabled === false && current.enabled) changes.enabled = false;
    if (Object.keys(changes).length === 0) return serializeWebhook(current);

    const w = schema.webhooks;
    const [row] = await tx
      .update(w)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(w.workspaceId, actor.workspaceId), eq(w.id, current.id)))
      .returning();
    if (!row) missing('the row update … returning wrote (row)');
    await audit(tx, actor, {
      action: 'webhook.updated',
      target: { type: 'webhook', id: current.id },
      // Which settings changed, and their new values, header values aside (they may be tokens).
      details: Object.fromEntries(
        Object.entries(changes).map(([key, value]) => [key, key === 'headers' ? '(changed)' : value]),
      ),
    });
    return serializeWebhook(row);
  });
}
