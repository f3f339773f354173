import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { loadPipeline } from '../pipelines/load-pipeline.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import { loadDeal } from './load-deal.ts';
import type { findDealsInput } from './schemas.ts';
import { serializeDeal } from './serialize.ts';

/** A page of one pipeline's deals, newest first; an unknown pipeline is a 404. */
export async function findDeals(db: Database, actor: Actor, input: z.infer<typeof findDealsInput>) {
  const paging = resolvePaging(input);
  const { stages } = await loadPipeline(db, actor, input.pipelineId);
  const d = schema.deals;
  const conditions: (SQL | undefined)[] = [
    eq(d.workspaceId, actor.workspaceId),
    eq(d.pipelineId, input.pipelineId),
  ];
  if (input.stageId !== undefined) {
    if (!stages.some((s) => s.id === input.stageId))
      throw invalid('stageId', `${input.stageId} is not a stage of this pipeline`);
    conditions.push(eq(d.stageId, input.stageId));
  }
  if (input.recordId !== undefined) conditions.push(eq(d.recordId, input.recordId));
  conditions.push(afterCursor(d.createdAt, d.id, paging, 'desc'));
  const rows = await db
    .select()
    .from(d)
    .where(and(...conditions))
    .orderBy(...keysetOrder(d.createdAt, d.id, 'desc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  return toPage(rows, paging, serializeDeal);
}

export async function getDeal(db: Database, actor: Actor, id: string) {
  return serializeDeal(await loadDeal(db, actor, id));
}
