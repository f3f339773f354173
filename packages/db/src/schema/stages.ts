import { foreignKey, index, integer, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns.ts';
import { pipelines } from './pipelines.ts';

export const stages = pgTable(
  'stages',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    pipelineId: text().notNull(),
    name: text().notNull(),
    /** Order of the stage in its pipeline, 0-based and gap-free. */
    position: integer().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'stages_pkey', columns: [t.workspaceId, t.id] }),
    unique('stages_workspace_pipeline_id_key').on(t.workspaceId, t.pipelineId, t.id),
    foreignKey({
      name: 'stages_pipeline_fk',
      columns: [t.workspaceId, t.pipelineId],
      foreignColumns: [pipelines.workspaceId, pipelines.id],
    }).onDelete('cascade'),
    index('stages_pipeline_position_idx').on(t.workspaceId, t.pipelineId, t.position),
  ],
);
