import { foreignKey, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, instant, workspaceId } from './columns.ts';
import { deliveries } from './deliveries.ts';

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
