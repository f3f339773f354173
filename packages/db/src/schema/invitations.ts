import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns.ts';
import { memberRoles } from './memberships.ts';
import { users } from './users.ts';
import { workspaces } from './workspaces.ts';

/** An invitation to join a workspace with a role; the link's token is stored hashed. */
export const invitations = pgTable(
  'invitations',
  {
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text().primaryKey(),
    email: text().notNull(),
    role: text({ enum: memberRoles }).notNull(),
    tokenHash: text().notNull(),
    invitedBy: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: instant().notNull(),
    acceptedAt: instant(),
    revokedAt: instant(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_key').on(t.tokenHash),
    index('invitations_workspace_created_idx').on(t.workspaceId, t.createdAt),
  ],
);
