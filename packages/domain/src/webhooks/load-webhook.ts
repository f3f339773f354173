import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';
import type { WebhookRow } from './serialize.ts';

/** A subscription of the actor's workspace; a malformed id or another workspace's is a 404. */
export async function loadWebhook(
  tx: Executor,
  actor: Actor,
  id: string,
  options: { lock?: 'update' | 'share' } = {},
): Promise<WebhookRow> {
  return loadInWorkspace(tx, schema.webhooks, actor.workspaceId, id, {
    kind: 'webhook',
    name: 'Webhook',
    ...options,
  });
}
