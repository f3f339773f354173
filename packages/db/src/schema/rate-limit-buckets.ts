import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant } from './columns.ts';

/**
 * Fixed buckets of a sliding-window counter, as long as the window of their subject (one
 * minute for API and trigger calls, 15 minutes for sign-in failures; see docs/api.md and
 * docs/web-app.md). A request is weighed against the current bucket plus the share of the
 * previous bucket still inside the window.
 * Kept in Postgres so every server process shares the same counts.
 */
export const rateLimitBuckets = pgTable(
  'rate_limit_buckets',
  {
    /** What is limited, e.g. `ws:<workspaceId>` or `wf:<workflowId>`. */
    subject: text().notNull(),
    windowStart: instant().notNull(),
    count: integer().notNull().default(0),
    /**
     * How many requests the latest write to the row added. A statement that counts a batch
     * reads it back to learn what it was granted, since another process may have written the
     * row between its snapshot and its lock.
     */
    lastGrant: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.subject, t.windowStart] })],
);
