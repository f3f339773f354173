import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';

export const workspaces = pgTable('workspaces', {
  id: text().primaryKey(),
  name: text().notNull(),
  /** REST requests allowed per minute (sliding window; docs/api.md, "Keys and limits"). */
  rateLimitPerMinute: integer().notNull().default(120),
  /** ISO 4217 code used for deals that name no currency. */
  defaultCurrency: text().notNull().default('USD'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
