import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { apiKeyScopes } from '@crm/db/schema';
import {
  type Actor,
  createApiKey,
  createWorkspace,
  currentSecretKeyId,
  findApiKeys,
  passwordInput,
  revokeApiKey,
  rightsOf,
  sealStoredSecrets,
  secretKeysConfigured,
  setPassword,
  setWorkspaceRateLimit,
  systemProvenance,
} from '@crm/domain';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { cliEnv } from './env.ts';

/**
 * `bootstrap`: a workspace, its owner and an API key; prints `{ workspaceId, userId, apiKey }`.
 * With `--password` (or CRM_OWNER_PASSWORD, which keeps it out of the shell history) the
 * owner can also sign in to the web app with the email and that password.
 */
export async function bootstrap(
  db: Database,
  options: Record<string, string | undefined>,
  env: NodeJS.ProcessEnv = cliEnv,
) {
  const input = z
    .object({
      workspace: z.string().min(1).default('My workspace'),
      email: z.email().default('owner@example.com'),
      name: z.string().min(1).default('Owner'),
      'rate-limit': z.coerce.number().int().min(1).optional(),
      password: passwordInput.optional(),
    })
    .parse({ ...options, password: options.password ?? (env.CRM_OWNER_PASSWORD || undefined) });
  const { workspaceId, userId } = await createWorkspace(db, {
    name: input.workspace,
    owner: { email: input.email, name: input.name },
    ...(input['rate-limit'] ? { rateLimitPerMinute: input['rate-limit'] } : {}),
  });
  if (input.password) await setPassword(db, input.email, input.password);
  const { secret } = await createApiKey(
    db,
    { workspaceId, userId, name: 'bootstrap' },
    systemProvenance('cli'),
  );
  return { workspaceId, userId, apiKey: secret };
}

/**
 * `users set-password`: lets a user sign in to the web app, or changes (resets) the password;
 * every session of the user ends.
 */
export async function usersSetPassword(
  db: Database,
  options: Record<string, string | undefined>,
  env: NodeJS.ProcessEnv = cliEnv,
) {
  const input = z
    .object({ email: z.email(), password: passwordInput })
    .parse({ email: options.email, password: options.password ?? (env.CRM_OWNER_PASSWORD || undefined) });
  const { userId, sessionsEnded } = await setPassword(db, input.email, input.password);
  return { userId, email: input.email.toLowerCase(), passwordSet: true, sessionsEnded };
}

export async function keysCreate(db: Database, options: Record<string, string | undefined>) {
  const input = z
    .object({
      workspace: z.string().min(1),
      user: z.string().optional(),
      name: z.string().min(1).default('cli'),
      scopes: z.string().default('read,write'),
      folders: z.string().optional(),
      'expires-at': z.string().optional(),
    })
    .parse(options);
  await assertWorkspace(db, input.workspace);
  const userId = input.user ?? (await cliActor(db, input.workspace)).userId;
  const scopes = z
    .array(z.enum(apiKeyScopes))
    .min(1)
    .parse(input.scopes.split(',').map((s) => s.trim()));
  const folderIds = input.folders ? input.folders.split(',').map((s) => s.trim()) : null;
  const { key, secret } = await createApiKey(
    db,
    {
      workspaceId: input.workspace,
      userId,
      name: input.name,
      scopes,
      folderIds,
      expiresAt: input['expires-at'] ? new Date(input['expires-at']).toISOString() : null,
    },
    systemProvenance('cli'),
  );
  return { ...key, apiKey: secret };
}

export async function keysList(db: Database, options: Record<string, string | undefined>) {
  const input = z.object({ workspace: z.string().min(1) }).parse(options);
  await assertWorkspace(db, input.workspace);
  return findApiKeys(db, await cliActor(db, input.workspace));
}

export async function keysRevoke(
  db: Database,
  options: Record<string, string | undefined>,
  positional: string[],
) {
  const input = z.object({ workspace: z.string().min(1) }).parse(options);
  const id = positional[0] ?? options.id;
  if (!id) throw new Error('keys revoke needs the key id: crm keys revoke <key_…> --workspace <ws_…>');
  await assertWorkspace(db, input.workspace);
  return revokeApiKey(db, await cliActor(db, input.workspace), id);
}

/**
 * `workspaces set-rate-limit`: how many requests a minute the workspace's keys may make
 * together; every running server counts with it from its next request.
 */
export async function workspacesSetRateLimit(
  db: Database,
  options: Record<string, string | undefined>,
  positional: string[],
) {
  const input = z.object({ 'rate-limit': z.coerce.number().int().min(1) }).parse(options);
  const id = positional[0] ?? options.workspace;
  if (!id) {
    throw new Error(
      'workspaces set-rate-limit needs the workspace id: crm workspaces set-rate-limit <ws_…> --rate-limit N',
    );
  }
  return setWorkspaceRateLimit(db, id, input['rate-limit']);
}

/**
 * `secrets reencrypt`: every stored secret, header value and sealed replayed response is
 * encrypted with SECRETS_KEY (values sealed with a key of SECRETS_KEY_PREVIOUS, and values
 * still in plaintext, are rewritten); afterwards the previous keys can be dropped. Prints
 * how many rows changed and the id of the key that now seals them all.
 */
export async function secretsReencrypt(db: Database) {
  if (!secretKeysConfigured()) {
    throw new Error(
      'No secrets key: set SECRETS_KEY (and the older keys in SECRETS_KEY_PREVIOUS), or start the service once so that it makes its key file in the data folder',
    );
  }
  const reencrypted = await sealStoredSecrets(db, { rekey: true });
  return { keyId: currentSecretKeyId(), reencrypted };
}

/** A `--workspace` that names no workspace is an error, not an empty answer. */
export async function assertWorkspace(db: Database, workspaceId: string): Promise<void> {
  const [row] = await db
    .select({ id: schema.workspaces.id })
    .from(schema.workspaces)
    .where(eq(schema.workspaces.id, workspaceId));
  if (!row) throw new Error(`Workspace ${workspaceId} not found`);
}

/**
 * Who the CLI acts as in a workspace: its first owner (the first member when it has none), its
 * changes recorded as the CLI's (`systemProvenance('cli')`: the audit log's actor and source).
 */
export async function cliActor(db: Database, workspaceId: string): Promise<Actor> {
  const m = schema.memberships;
  const rows = await db
    .select({ userId: m.userId, role: m.role, name: schema.users.name })
    .from(m)
    .innerJoin(schema.users, eq(schema.users.id, m.userId))
    .where(eq(m.workspaceId, workspaceId))
    .orderBy(asc(m.createdAt));
  const owner = rows.find((r) => r.role === 'OWNER') ?? rows[0];
  if (!owner) throw new Error(`workspace ${workspaceId} not found or has no members`);
  return {
    workspaceId,
    userId: owner.userId,
    userName: owner.name,
    role: owner.role,
    apiKeyId: null,
    scopes: rightsOf(owner.role),
    folderIds: null,
    provenance: systemProvenance('cli'),
  };
}
