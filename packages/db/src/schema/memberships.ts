import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';
import { workspaces } from './workspaces.ts';

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
