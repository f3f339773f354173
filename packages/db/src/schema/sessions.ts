import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns.ts';
import { memberRoles, users, workspaces } from './workspaces.ts';

/**
 * Web sign-in sessions. The cookie carries a random token; only its SHA-256 hash is stored,
 * so a copy of this table signs nobody in. The CSRF token is the one the web app must echo
 * in a header on every request the cookie authenticates.
 */
export const sessions = pgTable(
  'sessions',
  {
    /** Hex SHA-256 of the cookie token. */
    tokenHash: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The workspace this session works in (a user may belong to several). */
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    csrfToken: text().notNull(),
    expiresAt: instant().notNull(),
    /** Written at most once a minute; sliding expiry is computed from it. */
    lastSeenAt: instant().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

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
