import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { loadPipeline } from '../pipelines/load-pipeline.ts';
import { linkPrimary } from '../relations/participants.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid, invalidReference } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { recordDealCreated } from './deal-events.ts';
import { assertLiveRecord } from './load-deal.ts';
import type { createDealInput } from './schemas.ts';
import { serializeDeal } from './serialize.ts';

/** Creates a deal in its pipeline's first stage unless a stage of that pipeline is given. */
export async function createDeal(db: Database, actor: Actor, input: z.infer<typeof createDealInput>) {
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
      .values({
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
      })
      .returning();
    await linkPrimary(tx, actor, 'deal', row!.id, row!.recordId);
    await recordDealCreated(tx, actor, row!);
    return serializeDeal(row!);
  });
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
