import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadPipeline } from '../deals/stages.ts';
import type { Actor } from '../shared/actor.ts';
import { missing } from '../shared/missing.ts';
import type { renamePipelineInput } from './schemas.ts';
import { serializePipeline } from './serialize.ts';

export async function renamePipeline(db: Database, actor: Actor, input: z.infer<typeof renamePipelineInput>) {
  return db.transaction(async (tx) => {
    const { stages } = await loadPipeline(tx, actor, input.id, { lock: 'update' });
    const [pipeline] = await tx
      .update(schema.pipelines)
      .set({ name: input.name, updatedAt: sql`now()` })
      .where(and(eq(schema.pipelines.workspaceId, actor.workspaceId), eq(schema.pipelines.id, input.id)))
      .returning();
    if (!pipeline) missing('the row update … returning wrote (pipeline)');
    return serializePipeline(pipeline, stages);
  });
}
