import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { loadPipeline, type StageRow } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { serializePipeline } from './serialize.ts';

/** The stage `id` of the pipeline: a 404 when `path` is the stage the URL names, else a 400 naming `path`. */
export function stageOf(stages: StageRow[], id: string, path: string): StageRow {
  const stage = stages.find((s) => s.id === id);
  if (!stage) {
    if (path === 'stageId') throw new DomainError('NOT_FOUND', `Stage ${id} not found in this pipeline`);
    throw invalid(path, `${id} is not a stage of this pipeline`);
  }
  return stage;
}

/**
 * Runs a stage change under the pipeline's row lock, then writes the resulting order as
 * gap-free positions and returns the pipeline.
 */
export async function changeStages(
  db: Executor,
  actor: Actor,
  pipelineId: string,
  change: (tx: Executor, stages: StageRow[]) => Promise<StageRow[]>,
) {
  return db.transaction(async (tx) => {
    const { stages } = await loadPipeline(tx, actor, pipelineId, { lock: 'update' });
    const ordered = await change(tx, stages);
    for (const [position, stage] of ordered.entries()) {
      if (stage.position !== position) {
        await tx
          .update(schema.stages)
          .set({ position, updatedAt: sql`now()` })
          .where(and(eq(schema.stages.workspaceId, actor.workspaceId), eq(schema.stages.id, stage.id)));
      }
    }
    const [pipeline] = await tx
      .update(schema.pipelines)
      .set({ updatedAt: sql`now()` })
      .where(and(eq(schema.pipelines.workspaceId, actor.workspaceId), eq(schema.pipelines.id, pipelineId)))
      .returning();
    if (!pipeline) missing('the row update … returning wrote (pipeline)');
    const fresh = await loadPipeline(tx, actor, pipelineId);
    return serializePipeline(pipeline, fresh.stages);
  });
}
