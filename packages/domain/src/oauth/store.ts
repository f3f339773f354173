import { hash } from 'node:crypto';
import { type Database, schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { openSecret, sealSecret } from '../shared/secret-box.ts';

/**
 * The storage the OAuth authorization server keeps its models in (docs/mcp.md, "OAuth"), one
 * adapter per model in the shape the protocol library asks for: upsert, find (by id, by a
 * session's uid, by a device's user code), consume, destroy, and revoke everything of a grant.
 * Rows are found by the SHA-256 of the model's id, so the table holds no usable token.
 */
export interface OAuthAdapter {
  upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** The SHA-256, hex, under which a model's id is stored. */
export function storedId(id: string): string {
  return hash('sha256', id, 'hex');
}

/** An OAuth account: the user in the workspace they consented from, `<workspaceId>:<userId>`. */
export function accountIdOf(workspaceId: string, userId: string): string {
  return `${workspaceId}:${userId}`;
}

/** The workspace and user of an account id, or null when it is not one. */
function parseAccountId(accountId: unknown): { workspaceId: string; userId: string } | null {
  if (typeof accountId !== 'string') return null;
  const [workspaceId, userId, ...rest] = accountId.split(':');
  return workspaceId && userId && rest.length === 0 ? { workspaceId, userId } : null;
}

export function oauthAdapter(db: Database, model: string): OAuthAdapter {
  const t = schema.oauthModels;
  const row = (id: string) => and(eq(t.model, model), eq(t.id, storedId(id)));
  const live = (found: { payload: Record<string, unknown>; consumedAt: Date | null } | undefined) => {
    if (!found) return undefined;
    return found.consumedAt
      ? { ...found.payload, consumed: Math.floor(found.consumedAt.getTime() / 1000) }
      : found.payload;
  };
  const unexpired = sql`(${t.expiresAt} is null or ${t.expiresAt} > now())`;
  return {
    async upsert(id, payload, expiresIn) {
      // A token an app of the workspace got for itself (client credentials) has no account:
      // it is its app's, whose row holds the workspace and the admin who registered it.
      const account =
        model === 'ClientCredentials' && typeof payload.clientId === 'string'
          ? await appAccount(db, payload.clientId)
          : parseAccountId(payload.accountId);
      const values = {
        model,
        id: storedId(id),
        payload,
        grantId: typeof payload.grantId === 'string' ? payload.grantId : model === 'Grant' ? id : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        workspaceId: account?.workspaceId ?? null,
        userId: account?.userId ?? null,
        expiresAt: typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(t)
        .values(values)
        .onConflictDoUpdate({
          target: [t.model, t.id],
          set: {
            payload: values.payload,
            grantId: values.grantId,
            uid: values.uid,
            workspaceId: values.workspaceId,
            userId: values.userId,
            expiresAt: values.expiresAt,
          },
        });
    },
    async find(id) {
      const [found] = await db
        .select({ payload: t.payload, consumedAt: t.consumedAt })
        .from(t)
        .where(and(row(id), unexpired));
      const payload = live(found);
      // An app of the workspace keeps its secret sealed (register-app.ts); the server compares it open.
      return model === 'Client' && typeof payload?.client_secret === 'string'
        ? { ...payload, client_secret: openSecret(payload.client_secret) }
        : payload;
    },
    async findByUid(uid) {
      const [found] = await db
        .select({ payload: t.payload, consumedAt: t.consumedAt })
        .from(t)
        .where(and(eq(t.model, model), eq(t.uid, uid), unexpired))
        .limit(1);
      return live(found);
    },
    async findByUserCode(userCode) {
      const [found] = await db
        .select({ payload: t.payload, consumedAt: t.consumedAt })
        .from(t)
        .where(and(eq(t.model, model), sql`${t.payload}->>'userCode' = ${userCode}`, unexpired))
        .limit(1);
      return live(found);
    },
    async consume(id) {
      await db.update(t).set({ consumedAt: sql`now()` }).where(row(id));
    },
    async destroy(id) {
      await db.delete(t).where(row(id));
    },
    async revokeByGrantId(grantId) {
      await db.delete(t).where(eq(t.grantId, grantId));
    },
  };
}

/** The workspace and admin of an app of the workspace (register-app.ts), or null for any other client. */
async function appAccount(
  db: Database,
  clientId: string,
): Promise<{ workspaceId: string; userId: string } | null> {
  const t = schema.oauthModels;
  const [client] = await db
    .select({ workspaceId: t.workspaceId, userId: t.userId })
    .from(t)
    .where(and(eq(t.model, 'Client'), eq(t.id, storedId(clientId))));
  return client?.workspaceId && client.userId
    ? { workspaceId: client.workspaceId, userId: client.userId }
    : null;
}

/** Rows whose time is up, removed by the daily prune (expired rows are never answered anyway). */
export async function pruneOAuthModels(db: Database): Promise<number> {
  const t = schema.oauthModels;
  const gone = await db
    .delete(t)
    .where(sql`${t.expiresAt} < now() - interval '1 day'`)
    .returning({ id: t.id });
  return gone.length;
}

/**
 * A secret of the authorization server (its cookie keys, its signing key), made by `make` the
 * first time and kept sealed in the database, so every process of a fleet uses the same one.
 */
export async function oauthSecret(db: Database, id: string, make: () => string): Promise<string> {
  const k = schema.oauthKeys;
  await db
    .insert(k)
    .values({ id, secret: sealSecret(make()) })
    .onConflictDoNothing({ target: k.id });
  const [row] = await db.select({ secret: k.secret }).from(k).where(eq(k.id, id));
  if (!row) throw new Error(`the OAuth secret ${id} could not be stored`);
  return openSecret(row.secret);
}
