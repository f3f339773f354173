import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { lockStage } from '../pipelines/load-pipeline.ts';
import { linkPrimary } from '../relations/participants.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { recordDealUpdated } from './deal-events.ts';
import { assertLiveRecord, loadDeal } from './load-deal.ts';
import type { updateDealInput } from './schemas.ts';
import { type DealRow, serializeDeal } from './serialize.ts';

type Changes = Partial<
  Pick<DealRow, 'stageId' | 'title' | 'amount' | 'currency' | 'closeDate' | 'recordId' | 'data'>
>;

/**
 * PATCH a deal: fields not given stay, `data` merges. A stage move must stay inside the
 * deal's pipeline and records `deal.stage_changed` (fromStageId/toStageId) in the same
 * transaction; any change records `deal.updated` with the changed fields and old values.
 */
export async function updateDeal(db: Database, actor: Actor, input: z.infer<typeof updateDealInput>) {
  return db.transaction(async (tx) => {
    const current = await loadDeal(tx, actor, input.id, { forUpdate: true });
    if (input.stageId !== undefined && input.stageId !== current.stageId) {
      if (!(await lockStage(tx, actor.workspaceId, current.pipelineId, input.stageId))) {
        throw invalid(
          'stageId',
          `${input.stageId} is not a stage of the deal's pipeline ${current.pipelineId}`,
        );
      }
    }
    if (input.recordId) await assertLiveRecord(tx, actor, input.recordId, 'recordId');
    const changes: Changes = {};
    const changedFields: string[] = [];
    const previous: Record<string, unknown> = {};
    const note = (field: keyof Changes, next: unknown) => {
      changes[field] = next as never;
      changedFields.push(field);
      previous[field] =
        field === 'amount' && current.amount !== null ? Number(current.amount) : current[field];
    };
    if (input.stageId !== undefined && input.stageId !== current.stageId) note('stageId', input.stageId);
    if (input.title !== undefined && input.title !== current.title) note('title', input.title);
    if (input.amount !== undefined) {
      const amount = input.amount === null ? null : input.amount.toFixed(2);
      if (amount !== current.amount) note('amount', amount);
    }
    if (input.currency !== undefined && input.currency !== current.currency) note('currency', input.currency);
    if (input.closeDate !== undefined && input.closeDate !== current.closeDate)
      note('closeDate', input.closeDate);
    if (input.recordId !== undefined && input.recordId !== current.recordId) note('recordId', input.recordId);
    const data = { ...current.data };
    for (const [key, value] of Object.entries(input.data ?? {})) {
      const had = Object.hasOwn(data, key);
      if (value === null ? !had : had && JSON.stringify(data[key]) === JSON.stringify(value)) continue;
      changedFields.push(`data.${key}`);
      previous[`data.${key}`] = had ? data[key] : null;
      if (value === null) delete data[key];
      else data[key] = value;
    }
    if (changedFields.length === 0) return serializeDeal(current);
    const d = schema.deals;
    const [row] = await tx
      .update(d)
      .set({ ...changes, data, updatedAt: sql`now()` })
      .where(and(eq(d.workspaceId, actor.workspaceId), eq(d.id, current.id)))
      .returning();
    if (changes.recordId) await linkPrimary(tx, actor, 'deal', row!.id, changes.recordId);
    await recordDealUpdated(tx, actor, row!, changedFields, previous);
    return serializeDeal(row!);
  });
}
