import { taskPriorities, taskRecurrences, taskStatuses, taskTypes } from '@crm/constants';
import { sql } from 'drizzle-orm';
import {
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
} from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt, workspaceId } from './columns.ts';
import { records } from './records.ts';
import { users, workspaces } from './workspaces.ts';

export const pipelines = pgTable(
  'pipelines',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text().notNull(),
    name: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: 'pipelines_pkey', columns: [t.workspaceId, t.id] })],
);

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

export { taskPriorities, taskRecurrences, taskStatuses, taskTypes };

export const tasks = pgTable(
  'tasks',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    title: text().notNull(),
    dueAt: instant(),
    assigneeId: text().references(() => users.id, { onDelete: 'set null' }),
    recordId: text(),
    status: text({ enum: taskStatuses }).notNull().default('OPEN'),
    priority: text({ enum: taskPriorities }).notNull().default('MEDIUM'),
    type: text({ enum: taskTypes }).notNull().default('TODO'),
    recurrence: text({ enum: taskRecurrences }),
    completedAt: instant(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'tasks_pkey', columns: [t.workspaceId, t.id] }),
    foreignKey({
      name: 'tasks_record_fk',
      columns: [t.workspaceId, t.recordId],
      foreignColumns: [records.workspaceId, records.id],
    }),
    index('tasks_created_idx').on(t.workspaceId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('tasks_record_idx').on(t.workspaceId, t.recordId).where(sql`${t.recordId} is not null`),
    index('tasks_due_idx').on(t.workspaceId, t.status, t.dueAt),
  ],
);
