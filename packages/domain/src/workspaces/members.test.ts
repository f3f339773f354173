import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiKey, createApiKey } from '../api-keys/index.ts';
import { findAuditLog } from '../audit/find-audit-log.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { changeMemberRole } from './change-member-role.ts';
import { addMember } from './create-workspace.ts';
import { removeMember } from './remove-member.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

describe('member changes', () => {
  it('changes a role, and what the member’s keys may do follows at once', async () => {
    const ws = await newWorkspace(t.db);
    const other = await newWorkspace(t.db, 'Other');
    await t.db.transaction((tx) => addMember(tx, ws.actor.workspaceId, other.actor.userId, 'ADMIN'));
    const { secret } = await createApiKey(t.db, {
      workspaceId: ws.actor.workspaceId,
      userId: other.actor.userId,
      name: 'admin key',
    });
    expect((await authenticateApiKey(t.db, secret)).scopes.has('webhooks:write')).toBe(true);
    const changed = await changeMemberRole(t.db, ws.actor, { userId: other.actor.userId, role: 'MEMBER' });
    expect(changed.role).toBe('MEMBER');
    expect((await authenticateApiKey(t.db, secret)).scopes.has('webhooks:write')).toBe(false);
    const log = await findAuditLog(t.db, ws.actor, { action: 'member.role_changed' });
    expect(log.data[0]).toMatchObject({
      target: { id: other.actor.userId },
      details: { from: 'ADMIN', to: 'MEMBER' },
    });

    await removeMember(t.db, ws.actor, { userId: other.actor.userId });
    await expectDomainError(authenticateApiKey(t.db, secret), 'UNAUTHORIZED');
    expect((await findAuditLog(t.db, ws.actor, { action: 'member.removed' })).data).toHaveLength(1);
    await expectDomainError(removeMember(t.db, ws.actor, { userId: other.actor.userId }), 'NOT_FOUND');
  });

  it('keeps the last owner, and leaves owners to owners', async () => {
    const ws = await newWorkspace(t.db);
    await expectDomainError(
      changeMemberRole(t.db, ws.actor, { userId: ws.actor.userId, role: 'ADMIN' }),
      'CONFLICT',
    );
    await expectDomainError(removeMember(t.db, ws.actor, { userId: ws.actor.userId }), 'CONFLICT');
    const other = await newWorkspace(t.db, 'Other');
    await t.db.transaction((tx) => addMember(tx, ws.actor.workspaceId, other.actor.userId, 'MEMBER'));
    const admin = { ...ws.actor, role: 'ADMIN' as const };
    await expectDomainError(
      changeMemberRole(t.db, admin, { userId: other.actor.userId, role: 'OWNER' }),
      'FORBIDDEN',
    );
  });
});
