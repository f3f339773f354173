import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { loadRun } from './load-run.ts';
import { serializeRun } from './serialize.ts';

export async function getRun(db: Database, actor: Actor, id: string) {
  return serializeRun(await loadRun(db, actor, id));
}
