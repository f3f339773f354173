import { integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, workspaceId } from './columns.ts';
import { workspaces } from './workspaces.ts';

export const idempotencyStates = ['running', 'done'] as const;

/**
 * Idempotency-Key records of POST and PATCH requests (docs/api.md, "Idempotency-Key"), kept 24
 * hours per workspace: the request's fingerprint and, once it finished, the response to replay.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    /** sha256 of method, route and canonical body: the same key with another body is a 422. */
    fingerprint: text().notNull(),
    state: text({ enum: idempotencyStates }).notNull(),
    status: integer(),
    headers: jsonb().$type<Record<string, string>>(),
    body: text(),
    createdAt: instant().notNull(),
    updatedAt: instant().notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] })],
);
