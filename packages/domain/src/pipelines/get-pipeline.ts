import type { Database } from '@crm/db';
import { loadPipeline } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import { serializePipeline } from './serialize.ts';

export async function getPipeline(db: Database, actor: Actor, id: string) {
  const { pipeline, stages } = await loadPipeline(db, actor, id);
  return serializePipeline(pipeline, stages);
}
