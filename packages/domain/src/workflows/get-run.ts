import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import { loadRun } from './load-run.ts';
import { serializeRuns } from './serialize.ts';

export async function getRun(db: Database, actor: Actor, id: string) {
  const [run] = await serializeRuns(db, actor.workspaceId, [await loadRun(db, actor, id)]);
  return run ?? missing('run');
}
