import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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

export const deliveryStatuses = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;

/** One event sent to one subscription, with its retries. */
export const deliveries = pgTable(
  'deliveries',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    webhookId: text().notNull(),
    eventId: text().notNull(),
    status: text({ enum: deliveryStatuses }).notNull().default('PENDING'),
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: instant(),
    /** The redelivered delivery this one repeats, if any. */
    redeliveryOf: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'deliveries_pkey', columns: [t.workspaceId, t.id] }),
    foreignKey({
      name: 'deliveries_webhook_fk',
      columns: [t.workspaceId, t.webhookId],
      foreignColumns: [webhooks.workspaceId, webhooks.id],
    }).onDelete('cascade'),
    index('deliveries_webhook_created_idx').on(
      t.workspaceId,
      t.webhookId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('deliveries_created_idx').on(t.createdAt),
    // The deliveries table is the delivery queue: workers claim the due pending ones in order.
    index('deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'PENDING'`),
    // A retried fan-out job must not send an event twice to one subscription.
    uniqueIndex('deliveries_once_idx')
      .on(t.workspaceId, t.webhookId, t.eventId)
      .where(sql`${t.redeliveryOf} is null`),
  ],
);

/** Every HTTP attempt of a delivery, kept 30 days. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    deliveryId: text().notNull(),
    attempt: integer().notNull(),
    startedAt: instant().notNull(),
    durationMs: integer().notNull(),
    /** The receiver's status code, null when no response came (timeout, refused, blocked). */
    responseStatus: integer(),
    /** What went wrong when there was no 2xx, in words. */
    error: text(),
    /** First 4 KiB of the response body. */
    responseExcerpt: text(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'delivery_attempts_pkey', columns: [t.workspaceId, t.id] }),
    foreignKey({
      name: 'delivery_attempts_delivery_fk',
      columns: [t.workspaceId, t.deliveryId],
      foreignColumns: [deliveries.workspaceId, deliveries.id],
    }).onDelete('cascade'),
    index('delivery_attempts_delivery_idx').on(t.workspaceId, t.deliveryId, t.attempt),
  ],
);
