import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, count, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { moveDealsBetweenStages } from '../deals/move-deals.ts';
import { loadPipeline, type StageRow } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { DEFAULT_PIPELINE } from './default-pipeline.ts';
import {
  type addStageInput,
  type createPipelineInput,
  MAX_STAGES,
  type removeStageInput,
  type renamePipelineInput,
  type renameStageInput,
  type reorderStagesInput,
} from './schemas.ts';
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

export async function renamePipeline(db: Database, actor: Actor, input: z.infer<typeof renamePipelineInput>) {
  return db.transaction(async (tx) => {
    const { stages } = await loadPipeline(tx, actor, input.id, { lock: 'update' });
    const [pipeline] = await tx
      .update(schema.pipelines)
      .set({ name: input.name, updatedAt: sql`now()` })
      .where(and(eq(schema.pipelines.workspaceId, actor.workspaceId), eq(schema.pipelines.id, input.id)))
      .returning();
    if (!pipeline) missing('the row update … returning wrote (pipeline)');
    return serializePipeline(pipeline, stages);
  });
}

export async function addStage(db: Database, actor: Actor, input: z.infer<typeof addStageInput>) {
  return changeStages(db, actor, input.id, async (tx, stages) => {
    if (stages.length >= MAX_STAGES) throw invalid('name', `a pipeline holds at most ${MAX_STAGES} stages`);
    const position = Math.min(input.position ?? stages.length, stages.length);
    const created: StageRow = {
      workspaceId: actor.workspaceId,
      id: newId('stage'),
      pipelineId: input.id,
      name: input.name,
      position,
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    await tx.insert(schema.stages).values({ ...created, createdAt: undefined, updatedAt: undefined });
    return [...stages.slice(0, position), created, ...stages.slice(position)];
  });
}

export async function renameStage(db: Database, actor: Actor, input: z.infer<typeof renameStageInput>) {
  return changeStages(db, actor, input.id, async (tx, stages) => {
    stageOf(stages, input.stageId, 'stageId');
    await tx
      .update(schema.stages)
      .set({ name: input.name, updatedAt: sql`now()` })
      .where(and(eq(schema.stages.workspaceId, actor.workspaceId), eq(schema.stages.id, input.stageId)));
    return stages;
  });
}

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

/**
 * Removes a stage. A stage that holds deals is only removed when `moveDealsTo` names another
 * stage of the pipeline; the deals move there first, each recording a stage change.
 */
export async function removeStage(db: Database, actor: Actor, input: z.infer<typeof removeStageInput>) {
  return changeStages(db, actor, input.id, async (tx, stages) => {
    stageOf(stages, input.stageId, 'stageId');
    // The stage's own lock waits for deals being moved into it (updateDeal locks it FOR
    // SHARE), so the count below sees them and the removal never strands one.
    await tx
      .select({ id: schema.stages.id })
      .from(schema.stages)
      .where(and(eq(schema.stages.workspaceId, actor.workspaceId), eq(schema.stages.id, input.stageId)))
      .for('update');
    const d = schema.deals;
    const [held] = await tx
      .select({ n: count() })
      .from(d)
      .where(and(eq(d.workspaceId, actor.workspaceId), eq(d.stageId, input.stageId)));
    if (!held) missing('the count the query returned (held)');
    if (held.n > 0) {
      if (!input.moveDealsTo) {
        throw invalid(
          'moveDealsTo',
          `stage ${input.stageId} holds ${held.n} deal(s); name a stage to move them to`,
        );
      }
      if (input.moveDealsTo === input.stageId)
        throw invalid('moveDealsTo', 'must be another stage than the one removed');
      stageOf(stages, input.moveDealsTo, 'moveDealsTo');
      await moveDealsBetweenStages(tx, actor, input.stageId, input.moveDealsTo);
    }
    await tx
      .delete(schema.stages)
      .where(and(eq(schema.stages.workspaceId, actor.workspaceId), eq(schema.stages.id, input.stageId)));
    return stages.filter((s) => s.id !== input.stageId);
  });
}

function stageOf(stages: StageRow[], id: string, path: string): StageRow {
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
async function changeStages(
  db: Database,
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
