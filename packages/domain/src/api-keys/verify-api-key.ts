import type { Scope } from '@crm/constants';
import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { DomainError } from '../shared/errors.ts';
import { prepared } from '../shared/prepared.ts';
import { keyRights } from './scopes.ts';

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
