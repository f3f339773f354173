import { type Database, isSharded, runNamedSql, schema } from '@crm/db';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { recordColumnsOf, recordRowFromDriver } from '../record-model/serialize.ts';
import { linkPrimary } from '../relations/participants.ts';
import { type Actor, reachesFolder } from '../shared/actor.ts';
import { invalid, invalidReference } from '../shared/errors.ts';
import { writeWithEvents } from '../shared/events.ts';
import { isId, newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { appendDealCreated, dealFieldsWith } from './deal-events.ts';
import { assertLiveRecord } from './load-deal.ts';
import type { createDealInput, DealOutput } from './schemas.ts';
import { type DealRow, serializeDeal } from './serialize.ts';
import { loadPipeline } from './stages.ts';

/** Creates a deal in its pipeline's first stage unless a stage of that pipeline is given. */
export async function createDeal(db: Database, actor: Actor, input: z.infer<typeof createDealInput>) {
  const made = await createDealInOneStatement(db, actor, input);
  if (made) return made;
  return db.transaction(async (tx) => {
    const { stages } = await loadPipeline(tx, actor, input.pipelineId, { lock: 'share' }).catch(
      invalidReference('pipelineId', `pipeline ${input.pipelineId} does not exist`),
    );
    const stageId = input.stageId ?? stages[0]?.id;
    if (!stageId) throw invalid('pipelineId', 'the pipeline has no stages; add one first');
    if (!stages.some((s) => s.id === stageId))
      throw invalid('stageId', `${stageId} is not a stage of pipeline ${input.pipelineId}`);
    if (input.recordId) await assertLiveRecord(tx, actor, input.recordId, 'recordId');
    const currency = input.currency ?? (await workspaceCurrency(tx, actor.workspaceId));
    const [row] = await tx
      .insert(schema.deals)
      .values(newDealValues(actor, input, stageId, currency))
      .returning();
    if (!row) missing('the row insert … returning wrote (row)');
    await linkPrimary(tx, actor, 'deal', row.id, row.recordId);
    await appendDealCreated(tx, actor, row);
    return serializeDeal(row);
  });
}

/**
 * The common deal create in two statements and no transaction (docs/performance.md, "Writes
 * in one statement"): one read of the pipeline's stages, the workspace's currency and the
 * linked record, then one statement that inserts the deal only if the chosen stage of the
 * pipeline (share-locked: a stage removal locks it for update before it counts the deals
 * there) and the live record (share-locked) are still there, with the record's link, the `deal.created` event, deliveries and workflow starts.
 * Undefined when the create is not that simple, and the caller then takes the transactional
 * path, which gives every refusal its precise answer: a pipeline, stage or record that is not
 * there or not reachable, a sharded database, anything that changed in between.
 */
async function createDealInOneStatement(
  db: Database,
  actor: Actor,
  input: z.infer<typeof createDealInput>,
): Promise<DealOutput | undefined> {
  if (!isId('pipeline', input.pipelineId)) return undefined;
  if (input.recordId && !isId('record', input.recordId)) return undefined;
  if (await isSharded(db)) return undefined;
  const recordId = input.recordId ?? null;
  const [read] = await runNamedSql<Record<string, unknown> & { stage_ids: string[]; currency: string }>(
    db,
    'create_deal_read',
    sql`
      select array(select s.id from stages s
                    where s.workspace_id = p.workspace_id and s.pipeline_id = p.id
                    order by s.position) as stage_ids,
             (select w.default_currency from workspaces w where w.id = p.workspace_id) as currency,
             ${recordColumnsOf('r')}
        from pipelines p
        left join records r on r.workspace_id = p.workspace_id and r.id = ${recordId}
       where p.workspace_id = ${actor.workspaceId} and p.id = ${input.pipelineId}`,
  );
  if (!read) return undefined;
  const stageId = input.stageId ?? read.stage_ids[0];
  if (!stageId || !read.stage_ids.includes(stageId)) return undefined;
  // The record by the primary key alone, a trashed one taken for none (see loadInWorkspace).
  const record = read.id === null || read.trashed_at !== null ? null : recordRowFromDriver(read);
  if (recordId && (!record || !reachesFolder(actor, record.folderId))) return undefined;
  const deal: DealRow = {
    ...newDealValues(actor, input, stageId, input.currency ?? read.currency ?? 'USD'),
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
  const d = schema.deals;
  const written = await writeWithEvents(
    db,
    'create_deal',
    actor,
    [{ type: 'deal.created', fields: dealFieldsWith(record, deal) }],
    sql`
      insert into ${d} (workspace_id, id, pipeline_id, stage_id, title, amount, currency, close_date, data, record_id)
      select ${deal.workspaceId}, ${deal.id}, ${deal.pipelineId}, ${deal.stageId}, ${deal.title},
             ${deal.amount}::numeric, ${deal.currency}, ${deal.closeDate}::date,
             ${JSON.stringify(deal.data)}::jsonb, ${recordId}
        from stages s
       where s.workspace_id = ${actor.workspaceId} and s.pipeline_id = ${deal.pipelineId}
         and s.id = ${deal.stageId}
         and (${recordId}::text is null or coalesce((
           select r.trashed_at is null from records r
            where r.workspace_id = ${actor.workspaceId} and r.id = ${recordId}
              for share), false))
         for share of s
      returning created_at, updated_at`,
    'deal',
    sql`linked as (
      insert into deal_links (workspace_id, deal_id, record_id)
      select ${actor.workspaceId}, ${deal.id}, ${recordId}::text from written where ${recordId}::text is not null
      on conflict do nothing
      returning 1
    )`,
  );
  return written && serializeDeal({ ...deal, ...written });
}

/** A new deal's columns, its instants aside (the database dates it). */
function newDealValues(
  actor: Actor,
  input: z.infer<typeof createDealInput>,
  stageId: string,
  currency: string,
): Omit<DealRow, 'createdAt' | 'updatedAt'> {
  return {
    workspaceId: actor.workspaceId,
    id: newId('deal'),
    pipelineId: input.pipelineId,
    stageId,
    title: input.title ?? null,
    amount: input.amount === undefined ? null : input.amount.toFixed(2),
    currency,
    closeDate: input.closeDate ?? null,
    data: input.data ?? {},
    recordId: input.recordId ?? null,
  };
}

async function workspaceCurrency(
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  workspaceId: string,
) {
  const [row] = await tx
    .select({ currency: schema.workspaces.defaultCurrency })
    .from(schema.workspaces)
    .where(eq(schema.workspaces.id, workspaceId));
  return row?.currency ?? 'USD';
}
