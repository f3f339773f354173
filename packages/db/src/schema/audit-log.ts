import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, workspaceId } from './columns.ts';
import { workspaces } from './workspaces.ts';

/**
 * The workspace's audit log (docs/api.md, "Audit log"): changes to who may do what and to the
 * shape of the data (keys, webhooks, workflows, members and roles, folder fields), sign-ins
 * and failed sign-ins, exports and purges. One row per action, with its actor and surface,
 * what it acted on, and the details of the action. Kept `AUDIT_RETENTION_DAYS` (a year).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text().notNull(),
    at: instant().notNull().default(sql`now()`),
    action: text().notNull(),
    actorType: text().notNull(),
    actorId: text().notNull(),
    actorName: text().notNull(),
    source: text().notNull(),
    requestId: text(),
    targetType: text(),
    targetId: text(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    // Newest first is the key read backwards (ids are time-ordered).
    primaryKey({ name: 'audit_log_pkey', columns: [t.workspaceId, t.id] }),
    // The daily clean-up of entries past the retention, across workspaces.
    index('audit_log_at_idx').on(t.at),
  ],
);
