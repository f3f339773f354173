import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { isId } from '../shared/ids.ts';
import { loadInWorkspace } from '../shared/load-in-workspace.ts';

export type PipelineRow = typeof schema.pipelines.$inferSelect;
export type StageRow = typeof schema.stages.$inferSelect;

/**
 * A pipeline of the caller's workspace with its stages in order, or NOT_FOUND. `lock` takes
 * the pipeline row's lock for the rest of the transaction: `update` for a change to its
 * stages, `share` for a write that puts a deal in one of them, so that the stage it chose
 * cannot be removed before the deal is written (a stage change holds `update`).
 */
export async function loadPipeline(
  tx: Executor,
  actor: Actor,
  id: string,
  options: { lock?: 'update' | 'share' } = {},
): Promise<{ pipeline: PipelineRow; stages: StageRow[] }> {
  const pipeline = await loadInWorkspace(tx, schema.pipelines, actor.workspaceId, id, {
    kind: 'pipeline',
    name: 'Pipeline',
    ...options,
  });
  const stages = await stagesOf(tx, actor.workspaceId, [id]);
  return { pipeline, stages: stages.get(id) ?? [] };
}

/**
 * Whether `stageId` is a stage of the pipeline, locking its row (FOR SHARE) for the rest of
 * the transaction when it is: a deal moved into it cannot lose it to a concurrent removal,
 * which locks the stage FOR UPDATE before it counts the deals there (removeStage).
 */
export async function lockStage(
  tx: Executor,
  workspaceId: string,
  pipelineId: string,
  stageId: string,
): Promise<boolean> {
  if (!isId('stage', stageId)) return false;
  const s = schema.stages;
  const rows = await tx
    .select({ id: s.id })
    .from(s)
    .where(and(eq(s.workspaceId, workspaceId), eq(s.pipelineId, pipelineId), eq(s.id, stageId)))
    .for('share');
  return rows.length > 0;
}

/** Stages of several pipelines, each list in pipeline order. */
export async function stagesOf(
  tx: Executor,
  workspaceId: string,
  pipelineIds: string[],
): Promise<Map<string, StageRow[]>> {
  const byPipeline = new Map<string, StageRow[]>();
  if (pipelineIds.length === 0) return byPipeline;
  const s = schema.stages;
  const rows = await tx
    .select()
    .from(s)
    .where(and(eq(s.workspaceId, workspaceId), inArray(s.pipelineId, pipelineIds)))
    .orderBy(asc(s.pipelineId), asc(s.position));
  for (const row of rows) {
    const list = byPipeline.get(row.pipelineId) ?? [];
    list.push(row);
    byPipeline.set(row.pipelineId, list);
  }
  return byPipeline;
}
