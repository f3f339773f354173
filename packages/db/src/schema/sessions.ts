import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns.ts';
import { users } from './users.ts';
import { workspaces } from './workspaces.ts';

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
