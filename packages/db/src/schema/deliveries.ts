import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, instant, updatedAt, workspaceId } from './columns.ts';
import { webhooks } from './webhooks.ts';

/** CAPTURED: kept, not sent, by a sandbox (docs/operations.md, "Sandboxes"). */
export const deliveryStatuses = ['PENDING', 'SUCCEEDED', 'FAILED', 'CAPTURED'] as const;

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
    // An event is sent once to a subscription however often it is fanned out (appendEvent, and
    // the fan_out_event jobs of earlier versions a worker drains: docs/operations.md, "Upgrade notes").
    uniqueIndex('deliveries_once_idx')
      .on(t.workspaceId, t.webhookId, t.eventId)
      .where(sql`${t.redeliveryOf} is null`),
  ],
);
