import { createHash } from 'node:crypto';
import type { ApiKeyScope } from '@crm/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';
import {
  expectDomainError,
  newWorkspace,
  openTestDb,
  type TestDb,
  type TestWorkspace,
} from '../testing/fixtures.ts';
import { addMember } from '../workspaces/create-workspace.ts';
import { authenticateApiKey, createApiKey, findApiKeys, revokeApiKey } from './index.ts';
import { allScopes, keyRights, workspaceWideScopes } from './scopes.ts';
import { displayPrefix, generateSecret, hashSecret } from './secrets.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const newKey = (
  ws: TestWorkspace,
  extra: { expiresAt?: string; scopes?: ApiKeyScope[]; folderIds?: string[] } = {},
) =>
  createApiKey(t.db, {
    workspaceId: ws.actor.workspaceId,
    userId: ws.actor.userId,
    name: 'Zapier',
    ...extra,
  });

const keyRow = async (id: string) =>
  (
    await t.query<Record<string, unknown> & { last_used_at: Date | null }>(
      'select * from api_keys where id = $1',
      [id],
    )
  )[0]!;

async function expectUnauthorized(secret: string | undefined) {
  const error = await expectDomainError(authenticateApiKey(t.db, secret), 'UNAUTHORIZED');
  expect(error.challenge).toEqual({ scheme: 'Bearer' });
}

describe('createApiKey', () => {
  it('returns a secret of crm_ and 43 base62 characters once, and stores only its SHA-256 hash and prefix', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    expect(secret).toMatch(/^crm_[0-9A-Za-z]{43}$/);
    expect(isId('apiKey', key.id)).toBe(true);
    expect(key).toMatchObject({ name: 'Zapier', scopes: ['read', 'write'], userId: ws.actor.userId });
    expect(key).not.toHaveProperty('secret');
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(secret.length / 2);
    const row = await keyRow(key.id);
    expect(row.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(row.prefix).toBe(key.prefix);
    // The secret appears in no column.
    expect(Object.values(row).some((v) => typeof v === 'string' && v.includes(secret.slice(12)))).toBe(false);
  });

  it('generates distinct secrets of full length every time', () => {
    const secrets = Array.from({ length: 500 }, generateSecret);
    expect(new Set(secrets).size).toBe(500);
    for (const s of secrets) expect(s).toMatch(/^crm_[0-9A-Za-z]{43}$/);
  });

  it('refuses an expiry in the past', async () => {
    const ws = await newWorkspace(t.db);
    const error = await expectDomainError(
      newKey(ws, { expiresAt: '2020-01-01T00:00:00.000Z' }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.[0]?.path).toBe('expiresAt');
    expect(await findApiKeys(t.db, ws.actor)).toEqual([]);
  });

  it('keeps the scopes asked for', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws, { scopes: ['read', 'read'] });
    expect(key.scopes).toEqual(['read']);
    expect([...(await authenticateApiKey(t.db, secret)).scopes].every((s) => s.endsWith(':read'))).toBe(true);
  });

  it('takes scopes per resource and folders of the workspace', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws, {
      scopes: ['records:read', 'deals:write'],
      folderIds: [ws.peopleFolderId],
    });
    expect(key).toMatchObject({ scopes: ['deals:write', 'records:read'], folderIds: [ws.peopleFolderId] });
    const verified = await authenticateApiKey(t.db, secret);
    expect([...verified.scopes].sort()).toEqual(['deals:write', 'records:read']);
    expect(verified.folderIds).toEqual([ws.peopleFolderId]);
  });

  it('refuses scopes beyond its maker’s role, and folders of other workspaces', async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db, 'Other');
    // The other workspace's owner, a member here.
    const member = { userId: other.actor.userId };
    await t.db.transaction((tx) => addMember(tx, ws.actor.workspaceId, member.userId, 'MEMBER'));
    const beyond = await expectDomainError(
      createApiKey(t.db, {
        workspaceId: ws.actor.workspaceId,
        userId: member.userId,
        name: 'k',
        scopes: ['webhooks:write'],
      }),
      'VALIDATION_FAILED',
    );
    expect(beyond.message).toMatch(/webhooks:write is beyond what a MEMBER may do/);
    const foreign = await expectDomainError(
      newKey(ws, { folderIds: [other.peopleFolderId] }),
      'VALIDATION_FAILED',
    );
    expect(foreign.message).toMatch(/no such folder/);
    // `write` from a member stands for what a member holds: no webhook, workflow or audit right.
    const { secret } = await createApiKey(t.db, {
      workspaceId: ws.actor.workspaceId,
      userId: member.userId,
      name: 'member key',
    });
    const verified = await authenticateApiKey(t.db, secret);
    expect(verified.scopes.has('records:delete')).toBe(true);
    expect(verified.scopes.has('webhooks:read')).toBe(false);
    expect(verified.scopes.has('audit:read')).toBe(false);
  });

  it('refuses a scope whose reach is the whole workspace on a key limited to folders, naming scopes', async () => {
    const ws = await newWorkspace(t.db);
    for (const scope of workspaceWideScopes) {
      const error = await expectDomainError(
        newKey(ws, { scopes: ['records:read', scope], folderIds: [ws.peopleFolderId] }),
        'VALIDATION_FAILED',
      );
      expect(error.details).toEqual([
        {
          path: 'scopes',
          message: `${scope} cannot be held by a key limited to folders: webhook subscriptions and workflows reach the records of every folder`,
        },
      ]);
    }
    expect(await findApiKeys(t.db, ws.actor)).toEqual([]);
    // Without folders they are the owner's to give.
    const { secret } = await newKey(ws, { scopes: [...workspaceWideScopes] });
    expect([...(await authenticateApiKey(t.db, secret)).scopes].sort()).toEqual(
      [...workspaceWideScopes].sort(),
    );
  });

  it('gives a key limited to folders made with `write` everything but the workspace-wide scopes', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws, { folderIds: [ws.peopleFolderId] });
    expect(key.scopes).toEqual(['read', 'write']);
    const held = (await authenticateApiKey(t.db, secret)).scopes;
    for (const scope of workspaceWideScopes) expect(held.has(scope), scope).toBe(false);
    expect([...held].sort()).toEqual(allScopes.filter((s) => !workspaceWideScopes.includes(s)).sort());
    // Reading subscriptions and deleting them reach no record: still held.
    expect(held.has('webhooks:read')).toBe(true);
    expect(held.has('workflows:delete')).toBe(true);
  });

  it('keeps a key stored before scopes (read and write, every folder) as it was, within its maker’s role', async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db, 'Other');
    await t.db.transaction((tx) => addMember(tx, ws.actor.workspaceId, other.actor.userId, 'MEMBER'));
    const oldKey = async (userId: string) => {
      const secret = generateSecret();
      await t.query(
        `insert into api_keys (workspace_id, id, user_id, name, prefix, secret_hash, scopes, folder_ids)
         values ($1, $2, $3, 'old', $4, $5, '{read,write}', null)`,
        [ws.actor.workspaceId, newId('apiKey'), userId, displayPrefix(secret), hashSecret(secret)],
      );
      return secret;
    };
    const byOwner = await authenticateApiKey(t.db, await oldKey(ws.actor.userId));
    expect([...byOwner.scopes].sort()).toEqual([...allScopes].sort());
    expect(byOwner.folderIds).toBeNull();
    // A MEMBER's holds what a MEMBER may do: no webhooks, workflows, audit log or configuration.
    const byMember = await authenticateApiKey(t.db, await oldKey(other.actor.userId));
    expect([...byMember.scopes].sort()).toEqual(
      allScopes.filter((s) => !/^(webhooks|workflows|audit|config):/.test(s)).sort(),
    );
  });

  it('loses what its maker’s role loses', async () => {
    const ws = await newWorkspace(t.db);
    const { secret } = await newKey(ws, { scopes: ['webhooks:read', 'records:read'] });
    expect((await authenticateApiKey(t.db, secret)).scopes.has('webhooks:read')).toBe(true);
    await t.query(`update memberships set role = 'MEMBER' where workspace_id = $1 and user_id = $2`, [
      ws.actor.workspaceId,
      ws.actor.userId,
    ]);
    const now = await authenticateApiKey(t.db, secret);
    expect([...now.scopes]).toEqual(['records:read']);
  });
});

describe('authenticateApiKey', () => {
  it('resolves a valid key to its workspace, user and limits', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(await authenticateApiKey(t.db, secret)).toEqual({
      keyId: key.id,
      workspaceId: ws.actor.workspaceId,
      userId: ws.actor.userId,
      userName: ws.actor.userName,
      keyName: key.name,
      role: 'OWNER',
      scopes: keyRights(['read', 'write'], 'OWNER'),
      folderIds: null,
      rateLimitPerMinute: 120,
    });
  });

  it('answers UNAUTHORIZED with WWW-Authenticate: Bearer for a missing or unknown key', async () => {
    await expectUnauthorized(undefined);
    await expectUnauthorized('');
    await expectUnauthorized(generateSecret());
    await expectUnauthorized('not even a key');
  });

  it('answers UNAUTHORIZED for a revoked key, from the next call on', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    await authenticateApiKey(t.db, secret);
    const revoked = await revokeApiKey(t.db, ws.actor, key.id);
    expect(revoked.revokedAt).not.toBeNull();
    await expectUnauthorized(secret);
  });

  it('answers UNAUTHORIZED for an expired key', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    await authenticateApiKey(t.db, secret);
    await t.query(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [key.id]);
    await expectUnauthorized(secret);
  });

  it('answers UNAUTHORIZED once the key user is no longer a member', async () => {
    const ws = await newWorkspace(t.db);
    const { secret } = await newKey(ws);
    await t.query('delete from memberships where workspace_id = $1', [ws.actor.workspaceId]);
    await expectUnauthorized(secret);
  });

  it('writes lastUsedAt on first use and at most once a minute', async () => {
    const ws = await newWorkspace(t.db);
    const { key, secret } = await newKey(ws);
    expect((await keyRow(key.id)).last_used_at).toBeNull();

    await authenticateApiKey(t.db, secret);
    const first = (await keyRow(key.id)).last_used_at;
    expect(first).toBeInstanceOf(Date);
    expect(Math.abs(Date.now() - first!.getTime())).toBeLessThan(10_000);

    // 30 seconds ago: within the minute, not rewritten.
    await t.query(`update api_keys set last_used_at = now() - interval '30 seconds' where id = $1`, [key.id]);
    const thirty = (await keyRow(key.id)).last_used_at!;
    await authenticateApiKey(t.db, secret);
    expect((await keyRow(key.id)).last_used_at).toEqual(thirty);

    // Over a minute ago: rewritten to now.
    await t.query(`update api_keys set last_used_at = now() - interval '61 seconds' where id = $1`, [key.id]);
    const old = (await keyRow(key.id)).last_used_at!;
    await authenticateApiKey(t.db, secret);
    const rewritten = (await keyRow(key.id)).last_used_at!;
    expect(rewritten.getTime()).toBeGreaterThan(old.getTime() + 60_000);
    const listed = (await findApiKeys(t.db, ws.actor))[0];
    expect(listed?.lastUsedAt).toBe(rewritten.toISOString());
  });
});

describe('revokeApiKey and findApiKeys', () => {
  it('lists the workspace keys newest first without secrets', async () => {
    const ws = await newWorkspace(t.db);
    const one = await newKey(ws);
    const two = await newKey(ws);
    const keys = await findApiKeys(t.db, ws.actor);
    expect(keys.map((k) => k.id)).toEqual([two.key.id, one.key.id]);
    expect(JSON.stringify(keys)).not.toContain(one.secret);
    expect(JSON.stringify(keys)).not.toContain(two.secret);
  });

  it('keeps the first revocation time when revoked twice', async () => {
    const ws = await newWorkspace(t.db);
    const { key } = await newKey(ws);
    const first = await revokeApiKey(t.db, ws.actor, key.id);
    await t.query(`update api_keys set revoked_at = revoked_at - interval '1 hour' where id = $1`, [key.id]);
    const again = await revokeApiKey(t.db, ws.actor, key.id);
    expect(Date.parse(again.revokedAt!)).toBe(Date.parse(first.revokedAt!) - 3_600_000);
  });

  it('answers NOT_FOUND for unknown and malformed ids', async () => {
    const ws = await newWorkspace(t.db);
    for (const id of ['key_00000000000000000000000000', 'nope']) {
      const error = await expectDomainError(revokeApiKey(t.db, ws.actor, id), 'NOT_FOUND');
      expect(error).toBeInstanceOf(DomainError);
    }
  });
});
