import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { loadDeal } from './load-deal.ts';
import { serializeDeal } from './serialize.ts';

export async function getDeal(db: Database, actor: Actor, id: string) {
  return serializeDeal(await loadDeal(db, actor, id));
}
