import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../api-keys/index.ts';
import { allScopes, keyRights } from '../api-keys/scopes.ts';
import { consumeRateLimit } from '../rate-limit/consume-rate-limit.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { addMember } from './create-workspace.ts';
import { findMembers } from './find-members.ts';
import { getMe } from './get-me.ts';
import { workspaceRateLimitSubject } from './peek-rate-limit.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const MINUTE = Date.UTC(2032, 6, 1, 8, 0, 0);

describe('getMe', () => {
  it('describes the workspace, the user with their role and no key for an actor without one', async () => {
    const { actor } = await newWorkspace(t.db, 'Me Inc');
    await t.query('update workspaces set rate_limit_per_minute = 30 where id = $1', [actor.workspaceId]);
    const me = await getMe(t.db, actor, MINUTE + 30_000);
    expect(me).toEqual({
      workspace: { id: actor.workspaceId, name: 'Me Inc', defaultCurrency: 'USD', rateLimitPerMinute: 30 },
      user: {
        id: actor.userId,
        name: 'Owner Me Inc',
        email: expect.stringMatching(/@example\.com$/),
        role: 'OWNER',
      },
      key: null,
      scopes: [...allScopes],
      rateLimit: { limit: 30, remaining: 30, resetSeconds: 30 },
    });
  });

  it("shows the actor's key and the workspace's rate-limit state as the gate left it", async () => {
    const { actor } = await newWorkspace(t.db);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const { key, secret } = await createApiKey(t.db, {
      workspaceId: actor.workspaceId,
      userId: actor.userId,
      name: 'Zapier',
      scopes: ['read'],
      expiresAt,
    });
    const subject = workspaceRateLimitSubject(actor.workspaceId);
    await consumeRateLimit(t.db, subject, 120, MINUTE + 5_000);
    const gate = await consumeRateLimit(t.db, subject, 120, MINUTE + 5_000);
    const me = await getMe(
      t.db,
      { ...actor, apiKeyId: key.id, scopes: keyRights(['read'], 'OWNER') },
      MINUTE + 5_000,
    );
    expect(me.key).toEqual({
      id: key.id,
      name: 'Zapier',
      prefix: key.prefix,
      scopes: ['read'],
      folderIds: null,
      expiresAt,
    });
    expect(me.scopes).toContain('records:read');
    expect(me.scopes).not.toContain('records:write');
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(me.rateLimit).toEqual({ limit: 120, remaining: 118, resetSeconds: gate.resetSeconds });
  });

  it('is UNAUTHORIZED once the user is no longer a member', async () => {
    const { actor } = await newWorkspace(t.db);
    await t.query('delete from memberships where workspace_id = $1', [actor.workspaceId]);
    await expectDomainError(getMe(t.db, actor), 'UNAUTHORIZED');
  });
});

describe('findMembers', () => {
  it('lists the members of this workspace only, oldest first, with cursor paging', async () => {
    const a = await newWorkspace(t.db, 'A');
    const b = await newWorkspace(t.db, 'B');
    const c = await newWorkspace(t.db, 'C');
    await t.db.transaction((tx) => addMember(tx, a.actor.workspaceId, b.actor.userId, 'MEMBER'));
    const all = await findMembers(t.db, a.actor, {});
    expect(all.data.map((m) => [m.id, m.role])).toEqual([
      [a.actor.userId, 'OWNER'],
      [b.actor.userId, 'MEMBER'],
    ]);
    const first = await findMembers(t.db, a.actor, { pageSize: 1 });
    expect(first.meta.hasMore).toBe(true);
    const second = await findMembers(t.db, a.actor, { pageSize: 1, cursor: first.meta.nextCursor! });
    expect(second.data.map((m) => m.id)).toEqual([b.actor.userId]);
    expect(second.meta).toEqual({ page: null, pageSize: 1, hasMore: false, nextCursor: null, nextUrl: null });
    const others = await findMembers(t.db, c.actor, {});
    expect(others.data.map((m) => m.id)).toEqual([c.actor.userId]);
  });
});
