import type { Executor } from '@crm/db';
import { recordFields } from '../records/snapshot.ts';
import type { Actor } from '../shared/actor.ts';
import { appendEvent } from '../shared/events.ts';
import { type DealRow, serializeDeal } from './serialize.ts';

/**
 * Deal events (contract §6): `dealId`, `pipelineId`, the `deal` snapshot, and the spec's
 * `recordId` / `folderId` / `record` for the deal's linked record (null when none).
 */
async function dealFields(tx: Executor, actor: Actor, deal: DealRow) {
  return {
    ...(await recordFields(tx, actor.workspaceId, deal.recordId)),
    dealId: deal.id,
    pipelineId: deal.pipelineId,
    deal: serializeDeal(deal),
  };
}

export async function recordDealCreated(tx: Executor, actor: Actor, deal: DealRow) {
  return appendEvent(tx, actor.workspaceId, 'deal.created', await dealFields(tx, actor, deal));
}

export async function recordDealUpdated(
  tx: Executor,
  actor: Actor,
  deal: DealRow,
  changedFields: string[],
  previous: Record<string, unknown>,
) {
  return appendEvent(tx, actor.workspaceId, 'deal.updated', {
    ...(await dealFields(tx, actor, deal)),
    changedFields,
    previous,
  });
}

export async function recordStageChanged(tx: Executor, actor: Actor, deal: DealRow, fromStageId: string) {
  return appendEvent(tx, actor.workspaceId, 'deal.stage_changed', {
    ...(await dealFields(tx, actor, deal)),
    fromStageId,
    toStageId: deal.stageId,
  });
}
