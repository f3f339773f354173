import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../shared/actor.ts';
import { appendDealUpdated } from './deal-events.ts';

/** Moves every deal of one stage to another (when a stage is removed), recording each stage change. */
export async function moveDealsBetweenStages(
  tx: Executor,
  actor: Actor,
  fromStageId: string,
  toStageId: string,
) {
  const d = schema.deals;
  const moved = await tx
    .update(d)
    .set({ stageId: toStageId, updatedAt: sql`now()` })
    .where(and(eq(d.workspaceId, actor.workspaceId), eq(d.stageId, fromStageId)))
    .returning();
  for (const deal of moved) {
    await appendDealUpdated(tx, actor, deal, ['stageId'], { stageId: fromStageId });
  }
  return moved.length;
}
