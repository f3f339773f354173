import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import type { ApiKeyScope } from '@crm/db/schema';
import { and, desc, eq, sql } from 'drizzle-orm';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';
import { prepared } from '../shared/prepared.ts';
import type { ApiKeyOutput } from './schemas.ts';
import { displayPrefix, generateSecret, hashSecret } from './secrets.ts';

type ApiKeyRow = typeof schema.apiKeys.$inferSelect;

export function serializeApiKey(row: ApiKeyRow): ApiKeyOutput {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
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
  expiresAt?: string | null | undefined;
}

/** Creates a key; the secret is returned here once and only its hash is stored (contract §5). */
export async function createApiKey(
  db: Database,
  input: CreateApiKeyInput,
): Promise<{ key: ApiKeyOutput; secret: string }> {
  if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now()) {
    throw invalid('expiresAt', 'must be in the future');
  }
  const secret = generateSecret();
  const scopes = [...new Set(input.scopes ?? ['read', 'write'])].sort() as ApiKeyScope[];
  const [row] = await db.transaction(async (tx) => {
    const member = await tx
      .select({ userId: schema.memberships.userId })
      .from(schema.memberships)
      .where(
        and(
          eq(schema.memberships.workspaceId, input.workspaceId),
          eq(schema.memberships.userId, input.userId),
        ),
      );
    if (member.length === 0) throw invalid('userId', `${input.userId} is not a member of this workspace`);
    return tx
      .insert(schema.apiKeys)
      .values({
        workspaceId: input.workspaceId,
        id: newId('apiKey'),
        userId: input.userId,
        name: input.name,
        prefix: displayPrefix(secret),
        secretHash: hashSecret(secret),
        scopes,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      })
      .returning();
  });
  return { key: serializeApiKey(row!), secret };
}

export async function findApiKeys(db: Database, workspaceId: string): Promise<ApiKeyOutput[]> {
  const rows = await db
    .select()
    .from(schema.apiKeys)
    .where(eq(schema.apiKeys.workspaceId, workspaceId))
    .orderBy(desc(schema.apiKeys.createdAt), desc(schema.apiKeys.id));
  return rows.map(serializeApiKey);
}

/** Revocation takes effect on the next request: keys are looked up on every request. */
export async function revokeApiKey(db: Database, workspaceId: string, id: string): Promise<ApiKeyOutput> {
  if (!isId('apiKey', id)) throw notFound('API key', id);
  const k = schema.apiKeys;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(k)
      .set({ revokedAt: sql`coalesce(${k.revokedAt}, now())` })
      .where(and(eq(k.workspaceId, workspaceId), eq(k.id, id)))
      .returning();
    if (!row) throw notFound('API key', id);
    return serializeApiKey(row);
  });
}

export interface AuthenticatedKey {
  keyId: string;
  workspaceId: string;
  userId: string;
  userName: string;
  role: 'OWNER' | 'ADMIN' | 'MEMBER';
  scopes: ApiKeyScope[];
  rateLimitPerMinute: number;
}

function keyLookup(db: Database) {
  const k = schema.apiKeys;
  const m = schema.memberships;
  return db
    .select({
      keyId: k.id,
      workspaceId: k.workspaceId,
      userId: k.userId,
      scopes: k.scopes,
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

const unauthorized = (message: string) =>
  new DomainError('UNAUTHORIZED', message, { headers: { 'WWW-Authenticate': 'Bearer' } });

/**
 * Resolves a bearer secret to its key, workspace and user, or throws UNAUTHORIZED for a
 * missing, unknown, revoked or expired key, or one whose user left the workspace.
 * `lastUsedAt` is written at most once a minute.
 */
export async function authenticateApiKey(
  db: Database,
  secret: string | undefined,
): Promise<AuthenticatedKey> {
  if (!secret) throw unauthorized('Missing API key: send Authorization: Bearer <key>');
  const k = schema.apiKeys;
  const rows = await prepared(db, 'auth_api_key', keyLookup).execute({ hash: hashSecret(secret) });
  const row = rows[0];
  if (!row) throw unauthorized('Invalid API key');
  if (row.revokedAt) throw unauthorized('This API key has been revoked');
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) throw unauthorized('This API key has expired');
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= 60_000) {
    await db
      .update(k)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(k.id, row.keyId),
          sql`(${k.lastUsedAt} is null or ${k.lastUsedAt} < now() - interval '1 minute')`,
        ),
      );
  }
  return {
    keyId: row.keyId,
    workspaceId: row.workspaceId,
    userId: row.userId,
    userName: row.userName,
    role: row.role,
    scopes: row.scopes,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}
