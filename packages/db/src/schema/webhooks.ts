import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt, workspaceId } from './columns.ts';
import { workspaces } from './workspaces.ts';

/** An outgoing webhook subscription (docs/webhooks.md, "Managing subscriptions (REST and tRPC)"). */
export const webhooks = pgTable(
  'webhooks',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text().notNull(),
    url: text().notNull(),
    /** Event kinds, or `*` for all. */
    events: text().array().notNull(),
    /** For record.updated: only changes of these fields (`title`, `data.stage`…); empty means any. */
    fields: text().array().notNull().default(sql`'{}'::text[]`),
    /** Static headers sent with every delivery, for receivers that cannot check an HMAC. */
    headers: jsonb().$type<Record<string, string>>().notNull().default({}),
    description: text().notNull().default(''),
    enabled: boolean().notNull().default(true),
    /** Why the service disabled it (410 from the receiver, 5 days without success). */
    disabledReason: text(),
    secret: text().notNull(),
    /** The secret before the last rotation; it also signs until `previousSecretExpiresAt`. */
    previousSecret: text(),
    previousSecretExpiresAt: instant(),
    lastSuccessAt: instant(),
    /** When deliveries began to fail without a success since; 5 days of it disables the subscription. */
    failingSince: instant(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'webhooks_pkey', columns: [t.workspaceId, t.id] }),
    index('webhooks_workspace_enabled_idx').on(t.workspaceId, t.enabled),
  ],
);
