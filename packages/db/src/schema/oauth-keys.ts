import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** The authorization server's own secrets (cookie keys, token signing key), sealed at rest. */
export const oauthKeys = pgTable('oauth_keys', {
  id: text().primaryKey(),
  /** Sealed with the secrets-at-rest key (docs/operations.md, "Secrets at rest"). */
  secret: text().notNull(),
  createdAt: createdAt(),
});
