import { type KeyScope, keyScopes } from '@crm/constants';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns.ts';
import { users } from './users.ts';
import { workspaces } from './workspaces.ts';

/** What a key's `scopes` may list (docs/api.md, "Scopes"): `read`, `write`, or `<resource>:<action>`. */
export const apiKeyScopes = keyScopes;
export type ApiKeyScope = KeyScope;

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
    scopes: text().array().$type<ApiKeyScope[]>().notNull(),
    /**
     * The folders the key's record, comment, call and link calls may reach; null for every
     * folder. Records elsewhere are not found for it (docs/api.md, "Scopes").
     */
    folderIds: text().array(),
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
