/**
 * The tables that do not belong to one workspace, why, and where each lives once the schema
 * is sharded by workspace (docs/scaling.md). Every other table of the `public` schema is a
 * tenant table: it has a `workspace_id`, and its primary key, its unique constraints and its
 * foreign keys to other tenant tables all include it. A test reads the catalog and fails when
 * a table breaks the rule.
 *
 * - `reference`: small, read by every node; copied to each (a Citus reference table).
 * - `coordinator`: written in statements that span workspaces; kept on the node clients
 *   connect to, never distributed.
 *
 * graphile-worker's schema (the job queue) is global as a whole and stays on the coordinator.
 */
export const GLOBAL_TABLES = {
  workspaces: { placement: 'reference', why: 'the directory of tenants, which every tenant table points at' },
  users: {
    placement: 'reference',
    why: 'a person signs in before choosing a workspace, and may belong to several',
  },
  memberships: {
    placement: 'reference',
    why: 'read to sign a user in and to verify a key, before the workspace is known',
  },
  sessions: { placement: 'reference', why: 'found by the hash of the session cookie alone' },
  api_keys: { placement: 'reference', why: 'found by the hash of the secret a request sends, alone' },
  invitations: { placement: 'reference', why: 'found by the hash of the invitation token alone' },
  oauth_models: {
    placement: 'reference',
    why: 'OAuth clients, codes and tokens are found by the hash of their id alone, before the workspace is known',
  },
  oauth_keys: {
    placement: 'reference',
    why: "the authorization server's own secrets, one set for all workspaces",
  },
  rate_limit_buckets: {
    placement: 'coordinator',
    why: "one statement counts the requests of many workspaces' and sign-in subjects",
  },
  schema_migrations: { placement: 'coordinator', why: 'the migrations applied to the database' },
} as const satisfies Record<string, { placement: 'reference' | 'coordinator'; why: string }>;
