import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { moveDealsBetweenStages } from '../deals/move-deals.ts';
import type { StageRow } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { changeStages, stageOf } from './change-stages.ts';
import type { removeStageInput } from './schemas.ts';

/**
 * Removes a stage. A stage that holds deals is only removed when `moveDealsTo` names another
 * stage of the pipeline; the deals move there first, each recording a stage change.
 */
export async function removeStage(db: Database, actor: Actor, input: z.infer<typeof removeStageInput>) {
  return changeStages(db, actor, input.id, (tx, stages) => dropStage(tx, actor, stages, input));
}

/**
 * Removes a stage of `stages` (a pipeline's, locked by changeStages) in the caller's
 * transaction, its deals moved to `moveDealsTo` first; the stages left, in order.
 */
export async function dropStage(
  tx: Executor,
  actor: Actor,
  stages: StageRow[],
  input: Pick<z.infer<typeof removeStageInput>, 'stageId' | 'moveDealsTo'>,
): Promise<StageRow[]> {
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
}
