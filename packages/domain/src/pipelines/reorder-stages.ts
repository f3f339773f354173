import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { changeStages } from './change-stages.ts';
import type { reorderStagesInput } from './schemas.ts';

export async function reorderStages(db: Database, actor: Actor, input: z.infer<typeof reorderStagesInput>) {
  return changeStages(db, actor, input.id, async (_tx, stages) => {
    const byId = new Map(stages.map((s) => [s.id, s]));
    const sameSet =
      input.stageIds.length === stages.length &&
      new Set(input.stageIds).size === input.stageIds.length &&
      input.stageIds.every((id) => byId.has(id));
    if (!sameSet) throw invalid('stageIds', 'must list every stage of the pipeline exactly once');
    return input.stageIds.map((id) => byId.get(id) ?? missing('byId.get(id)'));
  });
}
