import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { loadWebhook } from './load-webhook.ts';
import { serializeWebhook } from './serialize.ts';

export async function getWebhook(db: Database, actor: Actor, id: string) {
  return serializeWebhook(await loadWebhook(db, actor, id));
}
