import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns.ts';
import { users, workspaces } from './workspaces.ts';

export const apiKeyScopes = ['read', 'write'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

export const apiKeys = pgTable(
  'api_keys',
  {
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** The first characters of the secret, kept for display (`crm_AbC12…`). */
    prefix: text().notNull(),
    /** Hex SHA-256 of the whole secret; the secret itself is never stored. */
    secretHash: text().notNull(),
    scopes: text({ enum: apiKeyScopes }).array().notNull(),
    expiresAt: instant(),
    revokedAt: instant(),
    lastUsedAt: instant(),
    createdAt: createdAt(),
  },
  (t) => [
    // Looked up on every request; unique across workspaces because the hash is the credential.
    uniqueIndex('api_keys_secret_hash_key').on(t.secretHash),
    index('api_keys_workspace_created_idx').on(t.workspaceId, t.createdAt),
  ],
);
