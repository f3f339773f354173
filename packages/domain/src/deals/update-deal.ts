import { type Database, isSharded, schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { recordColumns } from '../record-model/serialize.ts';
import { linkPrimary } from '../relations/participants.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { writeWithEvents } from '../shared/events.ts';
import { isId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { appendDealUpdated, dealFieldsWith, dealUpdatedEvents } from './deal-events.ts';
import { assertLiveRecord, loadDeal } from './load-deal.ts';
import type { DealOutput, updateDealInput } from './schemas.ts';
import { type DealRow, serializeDeal } from './serialize.ts';
import { lockStage } from './stages.ts';

type Changes = Partial<
  Pick<DealRow, 'stageId' | 'title' | 'amount' | 'currency' | 'closeDate' | 'recordId' | 'data'>
>;

/**
 * PATCH a deal: fields not given stay, `data` merges. A stage move must stay inside the
 * deal's pipeline and records `deal.stage_changed` (fromStageId/toStageId) in the same
 * transaction; any change records `deal.updated` with the changed fields and old values.
 */
export async function updateDeal(db: Database, actor: Actor, input: z.infer<typeof updateDealInput>) {
  const written = await updateDealInOneStatement(db, actor, input);
  if (written) return written;
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
    const { changes, changedFields, previous, data } = planDealChanges(current, input);
    if (changedFields.length === 0) return serializeDeal(current);
    const d = schema.deals;
    const [row] = await tx
      .update(d)
      .set({ ...changes, data, updatedAt: sql`now()` })
      .where(and(eq(d.workspaceId, actor.workspaceId), eq(d.id, current.id)))
      .returning();
    if (!row) missing('the row update … returning wrote (row)');
    if (changes.recordId) await linkPrimary(tx, actor, 'deal', row.id, changes.recordId);
    await appendDealUpdated(tx, actor, row, changedFields, previous);
    return serializeDeal(row);
  });
}

/**
 * The common deal PATCH (a stage move among them) in two statements and no transaction
 * (docs/performance.md, "Writes in one statement"): the deal read with its linked record,
 * then one statement that updates the deal only if it still holds what was read and, for a
 * stage move, only if the new stage is still a stage of its pipeline (share-locked, as
 * removeStage expects), with its events, history, deliveries and workflow starts. A deal not
 * found is a 404 as on the other path, nothing to change answers it as it is. Undefined when
 * the change needs more, and the caller then takes the transactional path, which decides
 * every case again with the deal locked: a new linked record to check and link, a stage that
 * is not the pipeline's (for its 400), a sharded database, a deal changed in between.
 */
async function updateDealInOneStatement(
  db: Database,
  actor: Actor,
  input: z.infer<typeof updateDealInput>,
): Promise<DealOutput | undefined> {
  if (typeof input.recordId === 'string') return undefined;
  if (await isSharded(db)) return undefined;
  if (!isId('deal', input.id)) throw notFound('Deal', input.id);
  const d = schema.deals;
  const r = schema.records;
  const [found] = await db
    .select({ deal: d, record: recordColumns })
    .from(d)
    .leftJoin(r, and(eq(r.workspaceId, d.workspaceId), eq(r.id, d.recordId)))
    .where(and(eq(d.workspaceId, actor.workspaceId), eq(d.id, input.id)));
  if (!found) throw notFound('Deal', input.id);
  // The deal's record by the primary key alone, a trashed one taken for none (see loadInWorkspace).
  const record = found.record?.trashedAt === null ? found.record : null;
  const current = found.deal;
  const { changes, changedFields, previous, data } = planDealChanges(current, input);
  if (changedFields.length === 0) return serializeDeal(current);
  const next: DealRow = { ...current, ...changes, data };
  const s = schema.stages;
  const stageStays =
    changes.stageId === undefined
      ? sql`true`
      : sql`exists (
           select 1 from ${s}
            where workspace_id = ${actor.workspaceId} and pipeline_id = ${current.pipelineId}
              and id = ${changes.stageId}
              for share)`;
  const written = await writeWithEvents(
    db,
    changes.stageId === undefined ? 'update_deal' : 'move_deal',
    actor,
    dealUpdatedEvents(dealFieldsWith(record, next), next, changedFields, previous),
    sql`
      update ${d} set stage_id = ${next.stageId}, title = ${next.title}, amount = ${next.amount}::numeric,
             currency = ${next.currency}, close_date = ${next.closeDate}::date,
             record_id = ${next.recordId}, data = ${JSON.stringify(next.data)}::jsonb, updated_at = now()
       where workspace_id = ${actor.workspaceId} and id = ${current.id}
         and stage_id = ${current.stageId} and title is not distinct from ${current.title}
         and amount is not distinct from ${current.amount}::numeric and currency = ${current.currency}
         and close_date is not distinct from ${current.closeDate}::date
         and record_id is not distinct from ${current.recordId}
         and data = ${JSON.stringify(current.data)}::jsonb
         and ${stageStays}
      returning created_at, updated_at`,
    'deal',
  );
  return written && serializeDeal({ ...next, updatedAt: written.updatedAt });
}

/** What a PATCH makes of a deal: the columns that change, the new `data`, and each changed field's old value. */
function planDealChanges(current: DealRow, input: z.infer<typeof updateDealInput>) {
  const changes: Changes = {};
  const changedFields: string[] = [];
  const previous: Record<string, unknown> = {};
  const note = (field: keyof Changes, next: unknown) => {
    changes[field] = next as never;
    changedFields.push(field);
    previous[field] = field === 'amount' && current.amount !== null ? Number(current.amount) : current[field];
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
  return { changes, changedFields, previous, data };
}
