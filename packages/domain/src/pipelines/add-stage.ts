import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { z } from 'zod';
import type { StageRow } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { changeStages } from './change-stages.ts';
import { type addStageInput, MAX_STAGES } from './schemas.ts';

export async function addStage(db: Database, actor: Actor, input: z.infer<typeof addStageInput>) {
  return changeStages(db, actor, input.id, (tx, stages) =>
    insertStage(tx, actor, stages, { pipelineId: input.id, name: input.name, position: input.position }),
  );
}

/**
 * Adds a stage to `stages` (a pipeline's, locked by changeStages) in the caller's transaction,
 * at `position` (default last); the stages, in order.
 */
export async function insertStage(
  tx: Executor,
  actor: Actor,
  stages: StageRow[],
  input: { pipelineId: string; name: string; position?: number | undefined },
): Promise<StageRow[]> {
  if (stages.length >= MAX_STAGES) throw invalid('name', `a pipeline holds at most ${MAX_STAGES} stages`);
  const position = Math.min(input.position ?? stages.length, stages.length);
  const created: StageRow = {
    workspaceId: actor.workspaceId,
    id: newId('stage'),
    pipelineId: input.pipelineId,
    name: input.name,
    position,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  await tx.insert(schema.stages).values({ ...created, createdAt: undefined, updatedAt: undefined });
  return [...stages.slice(0, position), created, ...stages.slice(position)];
}
