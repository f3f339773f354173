import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt, workspaceId } from './columns.ts';
import { workspaces } from './workspaces.ts';

/**
 * An automation (docs/workflows.md): a trigger and the actions it runs, in order. The id carries
 * 128 random bits because the incoming-webhook URL built from it is its only secret.
 */
export const workflows = pgTable(
  'workflows',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text().notNull(),
    name: text().notNull(),
    enabled: boolean().notNull().default(true),
    /** `INCOMING_WEBHOOK`, `SCHEDULE`, or an event kind (`record.created`…; docs/webhooks.md, "Event kinds"). */
    triggerType: text().notNull(),
    /** For a SCHEDULE trigger: its cron expression and IANA time zone; null otherwise. */
    schedule: jsonb().$type<{ cron: string; timezone: string }>(),
    /** For a SCHEDULE trigger: the next firing, while the workflow is enabled; null otherwise. */
    nextRunAt: instant(),
    /** For a SCHEDULE trigger: the firing that last started a run (each fires once). */
    lastScheduledFor: instant(),
    /** Members given a task when a run of the workflow fails. */
    notifyOnFailure: jsonb().$type<string[]>().notNull().default([]),
    /** The actions as saved (validated when saved): `[{ type, ...params }]`. */
    actions: jsonb().$type<Record<string, unknown>[]>().notNull(),
    /** When set, incoming calls must carry `X-Service-Signature` made with it. */
    secret: text(),
    /** The secret before the last rotation; also accepted until `previousSecretExpiresAt`. */
    previousSecret: text(),
    previousSecretExpiresAt: instant(),
    /** Incoming calls accepted per minute (sliding window). */
    rateLimitPerMinute: integer().notNull().default(600),
    /** The user whose name the runs act under (comment author, event actor). */
    createdBy: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'workflows_pkey', columns: [t.workspaceId, t.id] }),
    // A trigger URL names the workflow alone: this index finds it without the workspace
    // (docs/scaling.md, "The one lookup without a workspace").
    index('workflows_trigger_idx').on(t.id).where(sql`${t.triggerType} = 'INCOMING_WEBHOOK'`),
    index('workflows_workspace_created_idx').on(
      t.workspaceId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Event triggers are looked up on every event of the workspace.
    index('workflows_event_trigger_idx')
      .on(t.workspaceId, t.triggerType)
      .where(sql`${t.enabled} and ${t.triggerType} <> 'INCOMING_WEBHOOK'`),
    // Schedules that should have fired: the worker's sweep finds them after downtime.
    index('workflows_next_run_idx').on(t.nextRunAt).where(sql`${t.nextRunAt} is not null`),
  ],
);
