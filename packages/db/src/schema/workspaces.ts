import { integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
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

export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    email: text().notNull(),
    name: text().notNull(),
    /** argon2id hash for the web sign-in; null for users who only use API keys. */
    passwordHash: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

export const memberRoles = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type MemberRole = (typeof memberRoles)[number];

export const memberships = pgTable(
  'memberships',
  {
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text({ enum: memberRoles }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);
