import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { changeStages, stageOf } from './change-stages.ts';
import type { renameStageInput } from './schemas.ts';

export async function renameStage(db: Database, actor: Actor, input: z.infer<typeof renameStageInput>) {
  return changeStages(db, actor, input.id, async (tx, stages) => {
    stageOf(stages, input.stageId, 'stageId');
    await tx
      .update(schema.stages)
      .set({ name: input.name, updatedAt: sql`now()` })
      .where(and(eq(schema.stages.workspaceId, actor.workspaceId), eq(schema.stages.id, input.stageId)));
    return stages;
  });
}
