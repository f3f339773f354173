import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import type { z } from 'zod';
import { loadPipeline } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import { newId } from '../shared/ids.ts';
import { DEFAULT_PIPELINE } from './default-pipeline.ts';
import type { createPipelineInput } from './schemas.ts';
import { serializePipeline } from './serialize.ts';

export async function createPipeline(db: Database, actor: Actor, input: z.infer<typeof createPipelineInput>) {
  return db.transaction(async (tx) => {
    const id = await insertPipeline(
      tx,
      actor.workspaceId,
      input.name,
      input.stages ?? DEFAULT_PIPELINE.stages,
    );
    const { pipeline, stages } = await loadPipeline(tx, actor, id);
    return serializePipeline(pipeline, stages);
  });
}

/** Inserts a pipeline with its stages in order; also used for a new workspace's default pipeline. */
export async function insertPipeline(tx: Executor, workspaceId: string, name: string, stageNames: string[]) {
  const pipelineId = newId('pipeline');
  await tx.insert(schema.pipelines).values({ workspaceId, id: pipelineId, name });
  if (stageNames.length > 0) {
    await tx.insert(schema.stages).values(
      stageNames.map((stageName, position) => ({
        workspaceId,
        id: newId('stage'),
        pipelineId,
        name: stageName,
        position,
      })),
    );
  }
  return pipelineId;
}
