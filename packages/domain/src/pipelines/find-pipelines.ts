import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { stagesOf } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import type { findPipelinesInput } from './schemas.ts';
import { serializePipeline } from './serialize.ts';

/** A page of pipelines with their stages in order, newest first. */
export async function findPipelines(db: Database, actor: Actor, input: z.infer<typeof findPipelinesInput>) {
  const paging = resolvePaging(input);
  const p = schema.pipelines;
  const rows = await db
    .select()
    .from(p)
    .where(and(eq(p.workspaceId, actor.workspaceId), afterCursor(p.createdAt, p.id, paging, 'desc')))
    .orderBy(...keysetOrder(p.createdAt, p.id, 'desc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  const stages = await stagesOf(
    db,
    actor.workspaceId,
    rows.map((r) => r.id),
  );
  return toPage(rows, paging, (row) => serializePipeline(row, stages.get(row.id) ?? []));
}
