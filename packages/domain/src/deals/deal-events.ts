import type { Executor } from '@crm/db';
import { changesOf } from '../record-model/record-events.ts';
import type { RecordRow } from '../record-model/serialize.ts';
import { recordFields, toRecordSnapshot } from '../record-model/snapshot.ts';
import type { Actor } from '../shared/actor.ts';
import { appendEvent, appendEvents, type NewEvent } from '../shared/events.ts';
import { type DealRow, serializeDeal } from './serialize.ts';

/**
 * Deal events (docs/webhooks.md, "Payload"): `dealId`, `pipelineId`, the `deal` snapshot, and
 * the `recordId` / `folderId` / `record` of every event for the deal's linked record (null when
 * none).
 */
async function dealFields(tx: Executor, actor: Actor, deal: DealRow) {
  return {
    ...(await recordFields(tx, actor.workspaceId, deal.recordId)),
    dealId: deal.id,
    pipelineId: deal.pipelineId,
    deal: serializeDeal(deal),
  };
}

export async function appendDealCreated(tx: Executor, actor: Actor, deal: DealRow) {
  return appendEvent(tx, actor, 'deal.created', await dealFields(tx, actor, deal));
}

/**
 * `deal.updated` with the changed fields, their old values and `changes` (both values, which
 * the deal's history keeps), and `deal.stage_changed` when the stage moved from
 * `fromStageId`: one statement for both.
 */
export async function appendDealUpdated(
  tx: Executor,
  actor: Actor,
  deal: DealRow,
  changedFields: string[],
  previous: Record<string, unknown>,
) {
  return appendEvents(
    tx,
    actor,
    dealUpdatedEvents(await dealFields(tx, actor, deal), deal, changedFields, previous),
  );
}

/** The events of a deal's change, from its event fields (dealFields) as they are after it. */
export function dealUpdatedEvents(
  fields: { deal: ReturnType<typeof serializeDeal> } & Record<string, unknown>,
  deal: DealRow,
  changedFields: string[],
  previous: Record<string, unknown>,
): NewEvent[] {
  const events: NewEvent[] = [
    {
      type: 'deal.updated',
      fields: {
        ...fields,
        changedFields,
        previous,
        changes: changesOf(changedFields, previous, (field) =>
          field.startsWith('data.')
            ? fields.deal.data[field.slice(5)]
            : (fields.deal as unknown as Record<string, unknown>)[field],
        ),
      },
    },
  ];
  if (changedFields.includes('stageId')) {
    events.push({
      type: 'deal.stage_changed',
      fields: { ...fields, fromStageId: previous.stageId, toStageId: deal.stageId },
    });
  }
  return events;
}

/** A deal's event fields (dealFields) from its linked record as already read (null when none or in Trash). */
export function dealFieldsWith(record: RecordRow | null, deal: DealRow) {
  return {
    recordId: record?.id ?? null,
    folderId: record?.folderId ?? null,
    record: record ? toRecordSnapshot(record) : null,
    dealId: deal.id,
    pipelineId: deal.pipelineId,
    deal: serializeDeal(deal),
  };
}
