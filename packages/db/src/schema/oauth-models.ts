import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns.ts';

/**
 * What the OAuth authorization server keeps (docs/mcp.md, "OAuth"): registered clients,
 * grants, authorization codes, access and refresh tokens, interactions and sign-in sessions
 * of the authorization flow, one row each, the protocol library's own payload as JSON. `id`
 * is the SHA-256 of the model's id, so a copy of this table holds no usable token, as with
 * API keys. A grant's rows carry its account (workspace and user) for the connected-apps page.
 */
export const oauthModels = pgTable(
  'oauth_models',
  {
    /** `AccessToken`, `RefreshToken`, `AuthorizationCode`, `Client`, `Grant`, `Interaction`, `Session` … */
    model: text().notNull(),
    /** Hex SHA-256 of the model's id (for tokens: of the token itself). */
    id: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    /** The grant a code or token belongs to, so revoking the grant removes them at once. */
    grantId: text(),
    /** A session's uid, by which the protocol finds it. */
    uid: text(),
    /** The account of a grant or token: null for clients, interactions and sessions. */
    workspaceId: text(),
    userId: text(),
    expiresAt: instant(),
    consumedAt: instant(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oauth_models_grant_idx').on(t.grantId),
    index('oauth_models_uid_idx').on(t.uid),
    index('oauth_models_account_idx').on(t.workspaceId, t.userId, t.model),
    index('oauth_models_expires_idx').on(t.expiresAt),
  ],
);
