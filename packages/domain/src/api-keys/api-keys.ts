import type { Scope } from '@crm/constants';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import type { ApiKeyScope } from '@crm/db/schema';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { appendAudit } from '../audit/append-audit.ts';
import { type Actor, type Provenance, systemProvenance } from '../shared/actor.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { prepared } from '../shared/prepared.ts';
import { changeAuth } from './auth-changes.ts';
import type { ApiKeyOutput } from './schemas.ts';
import { keyRights, scopesBeyond, scopesBeyondFolders } from './scopes.ts';
import { displayPrefix, generateSecret, hashSecret } from './secrets.ts';

type ApiKeyRow = typeof schema.apiKeys.$inferSelect;

export function serializeApiKey(row: ApiKeyRow): ApiKeyOutput {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    folderIds: row.folderIds ?? null,
    userId: row.userId,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface CreateApiKeyInput {
  workspaceId: string;
  userId: string;
  name: string;
  scopes?: ApiKeyScope[] | undefined;
  folderIds?: string[] | null | undefined;
  expiresAt?: string | null | undefined;
}

/**
 * Creates a key; the secret is returned here once and only its hash is stored (docs/api.md,
 * "Keys and limits"). A key never gets more than its maker has: a scope the maker's role does
 * not hold is refused (400 naming it), and `read`/`write` stand for what the role holds. A key
 * limited to folders names folders of the workspace, and cannot ask for a scope whose reach is
 * the whole workspace (`workspaceWideScopes`, 400 naming `scopes`); its `write` stands for the
 * rest.
 */
export async function createApiKey(
  db: Database,
  input: CreateApiKeyInput,
  by: Actor | Provenance = systemProvenance('service'),
): Promise<{ key: ApiKeyOutput; secret: string }> {
  if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now()) {
    throw invalid('expiresAt', 'must be in the future');
  }
  const secret = generateSecret();
  const scopes = [...new Set(input.scopes ?? ['read', 'write'])].sort() as ApiKeyScope[];
  const folderIds = input.folderIds ? [...new Set(input.folderIds)].sort() : null;
  const [row] = await db.transaction(async (tx) => {
    const member = await tx
      .select({ userId: schema.memberships.userId, role: schema.memberships.role })
      .from(schema.memberships)
      .where(
        and(
          eq(schema.memberships.workspaceId, input.workspaceId),
          eq(schema.memberships.userId, input.userId),
        ),
      );
    if (member.length === 0) throw invalid('userId', `${input.userId} is not a member of this workspace`);
    const beyond = scopesBeyond(scopes, (member[0] ?? missing('member[0]')).role);
    if (beyond.length > 0) {
      throw invalid(
        'scopes',
        `${beyond.join(', ')} ${beyond.length === 1 ? 'is' : 'are'} beyond what a ${(member[0] ?? missing('member[0]')).role} may do`,
      );
    }
    const wide = folderIds ? scopesBeyondFolders(scopes) : [];
    if (wide.length > 0) {
      throw invalid(
        'scopes',
        `${wide.join(', ')} cannot be held by a key limited to folders: webhook subscriptions and workflows reach the records of every folder`,
      );
    }
    if (folderIds) {
      const found = await tx
        .select({ id: schema.folders.id })
        .from(schema.folders)
        .where(and(eq(schema.folders.workspaceId, input.workspaceId), inArray(schema.folders.id, folderIds)));
      const unknown = folderIds.filter((id) => !found.some((f) => f.id === id));
      if (unknown.length > 0)
        throw invalid('folderIds', `${unknown.join(', ')}: no such folder in this workspace`);
    }
    const rows = await tx
      .insert(schema.apiKeys)
      .values({
        workspaceId: input.workspaceId,
        id: newId('apiKey'),
        userId: input.userId,
        name: input.name,
        prefix: displayPrefix(secret),
        secretHash: hashSecret(secret),
        scopes,
        folderIds,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      })
      .returning();
    await appendAudit(tx, input.workspaceId, by, {
      action: 'api_key.created',
      target: { type: 'api_key', id: (rows[0] ?? missing('the key the insert … returning wrote')).id },
      details: {
        name: input.name,
        scopes,
        folderIds,
        userId: input.userId,
        expiresAt: input.expiresAt ?? null,
      },
    });
    return rows;
  });
  return { key: serializeApiKey(row ?? missing('the key the insert … returning wrote')), secret };
}

export async function findApiKeys(db: Database, workspaceId: string): Promise<ApiKeyOutput[]> {
  const rows = await db
    .select()
    .from(schema.apiKeys)
    .where(eq(schema.apiKeys.workspaceId, workspaceId))
    .orderBy(desc(schema.apiKeys.createdAt), desc(schema.apiKeys.id));
  return rows.map(serializeApiKey);
}

/**
 * Revokes a key. It is refused from the next request on, in every process: the revocation
 * reaches the key caches through `changeAuth` (docs/operations.md, "API keys in memory").
 */
export async function revokeApiKey(
  db: Database,
  workspaceId: string,
  id: string,
  by: Actor | Provenance = systemProvenance('service'),
): Promise<ApiKeyOutput> {
  if (!isId('apiKey', id)) throw notFound('API key', id);
  const k = schema.apiKeys;
  return changeAuth(db, { keyId: id }, async (tx) => {
    const [row] = await tx
      .update(k)
      .set({ revokedAt: sql`coalesce(${k.revokedAt}, now())` })
      .where(and(eq(k.workspaceId, workspaceId), eq(k.id, id)))
      .returning();
    if (!row) throw notFound('API key', id);
    await appendAudit(tx, workspaceId, by, {
      action: 'api_key.revoked',
      target: { type: 'api_key', id },
      details: { name: row.name },
    });
    return serializeApiKey(row);
  });
}

export interface AuthenticatedKey {
  keyId: string;
  /** The key's name, as changes made with it are recorded (`actor.name`). */
  keyName: string;
  workspaceId: string;
  userId: string;
  userName: string;
  role: 'OWNER' | 'ADMIN' | 'MEMBER';
  /** What the key may do now: its scopes within its maker's rights (scopes.ts). */
  scopes: ReadonlySet<Scope>;
  /** The folders the key reaches, or null for every folder. */
  folderIds: readonly string[] | null;
  rateLimitPerMinute: number;
}

function keyLookup(db: Database) {
  const k = schema.apiKeys;
  const m = schema.memberships;
  return db
    .select({
      keyId: k.id,
      keyName: k.name,
      workspaceId: k.workspaceId,
      userId: k.userId,
      scopes: k.scopes,
      folderIds: k.folderIds,
      expiresAt: k.expiresAt,
      revokedAt: k.revokedAt,
      lastUsedAt: k.lastUsedAt,
      userName: schema.users.name,
      role: m.role,
      rateLimitPerMinute: schema.workspaces.rateLimitPerMinute,
    })
    .from(k)
    .innerJoin(schema.workspaces, eq(schema.workspaces.id, k.workspaceId))
    .innerJoin(schema.users, eq(schema.users.id, k.userId))
    .innerJoin(m, and(eq(m.workspaceId, k.workspaceId), eq(m.userId, k.userId)))
    .where(eq(k.secretHash, sql.placeholder('hash')))
    .prepare('auth_api_key');
}

export const unauthorizedKey = (message: string) =>
  new DomainError('UNAUTHORIZED', message, { challenge: { scheme: 'Bearer' } });

export const MISSING_KEY_MESSAGE = 'Missing API key: send Authorization: Bearer <key>';

/** A verified key as looked up, with what the caches need to keep it. */
export interface VerifiedKey {
  key: AuthenticatedKey;
  /** Milliseconds since the epoch, or null for a key that never expires. */
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/**
 * Looks a key up by the SHA-256 hash of its secret and checks it, or throws UNAUTHORIZED for
 * an unknown, revoked or expired key, or one whose user left the workspace. Writes nothing.
 */
export async function verifyApiKey(db: Database, hash: string, now = Date.now()): Promise<VerifiedKey> {
  const rows = await prepared(db, 'auth_api_key', keyLookup).execute({ hash });
  const row = rows[0];
  if (!row) throw unauthorizedKey('Invalid API key');
  if (row.revokedAt) throw unauthorizedKey('This API key has been revoked');
  if (row.expiresAt && row.expiresAt.getTime() <= now) throw unauthorizedKey('This API key has expired');
  return {
    key: {
      keyId: row.keyId,
      keyName: row.keyName,
      workspaceId: row.workspaceId,
      userId: row.userId,
      userName: row.userName,
      role: row.role,
      scopes: keyRights(row.scopes, row.role, row.folderIds),
      folderIds: row.folderIds ?? null,
      rateLimitPerMinute: row.rateLimitPerMinute,
    },
    expiresAt: row.expiresAt?.getTime() ?? null,
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
  };
}

/** How stale `lastUsedAt` may be: a key's use is written at most this often. */
export const KEY_USE_PRECISION_MS = 60_000;

export interface KeyUse {
  keyId: string;
  workspaceId: string;
  at: Date;
}

export const RECORD_KEY_USES_SQL = `
  update api_keys k set last_used_at = u.at
    from unnest($1::text[], $2::text[], $3::timestamptz[]) as u(workspace_id, id, at)
   where k.workspace_id = u.workspace_id and k.id = u.id
     and (k.last_used_at is null or k.last_used_at < u.at)`;

/** Writes the `lastUsedAt` of many keys in one statement; never moves one back in time. */
export async function recordKeyUses(db: Database, uses: readonly KeyUse[]): Promise<void> {
  if (uses.length === 0) return;
  await db.$client.query({
    name: 'record_key_uses',
    text: RECORD_KEY_USES_SQL,
    values: [uses.map((u) => u.workspaceId), uses.map((u) => u.keyId), uses.map((u) => u.at)],
  });
}

/**
 * Resolves a bearer secret to its key, workspace and user with one lookup, writing
 * `lastUsedAt` when it is older than a minute. The server goes through `ApiKeyCache`
 * instead, which keeps verified keys in memory and writes their uses in batches.
 */
export async function authenticateApiKey(
  db: Database,
  secret: string | undefined,
): Promise<AuthenticatedKey> {
  if (!secret) throw unauthorizedKey(MISSING_KEY_MESSAGE);
  const now = Date.now();
  const verified = await verifyApiKey(db, hashSecret(secret), now);
  if (verified.lastUsedAt === null || now - verified.lastUsedAt >= KEY_USE_PRECISION_MS) {
    const { keyId, workspaceId } = verified.key;
    await recordKeyUses(db, [{ keyId, workspaceId, at: new Date(now) }]);
  }
  return verified.key;
}
