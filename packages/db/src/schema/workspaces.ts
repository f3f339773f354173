import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';

export const workspaces = pgTable(
  'workspaces',
  {
    id: text().primaryKey(),
    name: text().notNull(),
    /** REST requests allowed per minute (sliding window; docs/api.md, "Keys and limits"). */
    rateLimitPerMinute: integer().notNull().default(120),
    /** ISO 4217 code used for deals that name no currency. */
    defaultCurrency: text().notNull().default('USD'),
    /**
     * For a sandbox (docs/operations.md, "Sandboxes"): the workspace it was made from. Its
     * webhooks and HTTP_REQUEST steps send only to `sandboxAllow`; the rest are captured.
     */
    sandboxOf: text(),
    /** URL prefixes a sandbox sends to (`https://hooks.example.com/test`). */
    sandboxAllow: text().array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('workspaces_sandbox_of_idx').on(t.sandboxOf).where(sql`${t.sandboxOf} is not null`)],
);
