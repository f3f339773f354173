import { sql } from 'drizzle-orm';
import { date, foreignKey, index, jsonb, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns.ts';
import { records } from './records.ts';
import { stages } from './stages.ts';

export const deals = pgTable(
  'deals',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    pipelineId: text().notNull(),
    stageId: text().notNull(),
    title: text(),
    amount: numeric({ precision: 14, scale: 2 }),
    /** ISO 4217 code. */
    currency: text().notNull().default('USD'),
    closeDate: date({ mode: 'string' }),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    recordId: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'deals_pkey', columns: [t.workspaceId, t.id] }),
    // The stage must belong to the deal's pipeline, enforced by the database as well.
    foreignKey({
      name: 'deals_stage_fk',
      columns: [t.workspaceId, t.pipelineId, t.stageId],
      foreignColumns: [stages.workspaceId, stages.pipelineId, stages.id],
    }),
    foreignKey({
      name: 'deals_record_fk',
      columns: [t.workspaceId, t.recordId],
      foreignColumns: [records.workspaceId, records.id],
    }),
    index('deals_pipeline_created_idx').on(
      t.workspaceId,
      t.pipelineId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('deals_stage_idx').on(t.workspaceId, t.stageId),
    index('deals_record_idx').on(t.workspaceId, t.recordId).where(sql`${t.recordId} is not null`),
  ],
);
