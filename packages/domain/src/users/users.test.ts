import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import {
  acceptInvitation,
  createInvitation,
  findInvitations,
  revokeInvitation,
  setPassword,
} from './invitations.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { authenticateSession, endSession, hashToken, pruneSessions, signIn } from './sessions.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const PASSWORD = 'correct horse battery';

async function ownerWithPassword(name = 'Acme') {
  const ws = await newWorkspace(t.db, name);
  const [user] = await t.query<{ email: string }>('select email from users where id = $1', [ws.actor.userId]);
  await setPassword(t.db, user!.email, PASSWORD);
  return { ...ws, email: user!.email };
}

describe('passwords', () => {
  it('hashes with argon2id, salted, and verifies only the right password', async () => {
    const one = await hashPassword(PASSWORD);
    const two = await hashPassword(PASSWORD);
    expect(one).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(one).not.toBe(two);
    expect(await verifyPassword(one, PASSWORD)).toBe(true);
    expect(await verifyPassword(one, `${PASSWORD}!`)).toBe(false);
    expect(await verifyPassword('not a hash', PASSWORD)).toBe(false);
  });

  it('refuses a short password when setting one, and an unknown email', async () => {
    const ws = await ownerWithPassword();
    const error = await expectDomainError(setPassword(t.db, ws.email, 'short'), 'VALIDATION_FAILED');
    expect(error.details?.[0]?.path).toBe('password');
    await expectDomainError(setPassword(t.db, 'nobody@example.com', PASSWORD), 'NOT_FOUND');
  });
});

describe('signIn and sessions', () => {
  it('signs the owner in (email in any case) and resolves the cookie token to an OWNER actor', async () => {
    const ws = await ownerWithPassword();
    const session = await signIn(t.db, { email: ws.email.toUpperCase(), password: PASSWORD });
    expect(session.token).toMatch(/^[\w-]{43}$/);
    const info = await authenticateSession(t.db, session.token);
    expect(info).toMatchObject({
      actor: { workspaceId: ws.actor.workspaceId, userId: ws.actor.userId, role: 'OWNER', apiKeyId: null },
      csrfToken: session.csrfToken,
      email: ws.email,
    });
    // Only the hash of the token is stored.
    const rows = await t.query<{ token_hash: string }>('select token_hash from sessions where user_id = $1', [
      ws.actor.userId,
    ]);
    expect(rows.map((r) => r.token_hash)).toEqual([hashToken(session.token)]);
  });

  it('answers the same UNAUTHORIZED for a wrong password, an unknown email and a user without password', async () => {
    const ws = await ownerWithPassword();
    const other = await newWorkspace(t.db);
    const [noPassword] = await t.query<{ email: string }>('select email from users where id = $1', [
      other.actor.userId,
    ]);
    const messages = [];
    for (const attempt of [
      { email: ws.email, password: 'wrong password!' },
      { email: 'nobody-here@example.com', password: PASSWORD },
      { email: noPassword!.email, password: PASSWORD },
    ]) {
      messages.push((await expectDomainError(signIn(t.db, attempt), 'UNAUTHORIZED')).message);
    }
    expect(new Set(messages)).toEqual(new Set(['Wrong email or password']));
  });

  it('limits sign-in attempts to 10 a minute per email', async () => {
    const ws = await ownerWithPassword();
    for (let i = 0; i < 10; i++) {
      await expectDomainError(signIn(t.db, { email: ws.email, password: 'wrong password!' }), 'UNAUTHORIZED');
    }
    const error = await expectDomainError(
      signIn(t.db, { email: ws.email, password: PASSWORD }),
      'RATE_LIMITED',
    );
    expect(Number(error.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
  });

  it('ends a session on sign-out, after expiry, after a week idle, and when the user leaves', async () => {
    const ws = await ownerWithPassword();
    const signOut = await signIn(t.db, { email: ws.email, password: PASSWORD });
    await endSession(t.db, signOut.token);
    expect(await authenticateSession(t.db, signOut.token)).toBeNull();

    const expired = await signIn(t.db, { email: ws.email, password: PASSWORD });
    await t.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [
      hashToken(expired.token),
    ]);
    expect(await authenticateSession(t.db, expired.token)).toBeNull();

    const idle = await signIn(t.db, { email: ws.email, password: PASSWORD });
    await t.query(`update sessions set last_seen_at = now() - interval '8 days' where token_hash = $1`, [
      hashToken(idle.token),
    ]);
    expect(await authenticateSession(t.db, idle.token)).toBeNull();

    const left = await signIn(t.db, { email: ws.email, password: PASSWORD });
    expect(await authenticateSession(t.db, left.token)).not.toBeNull();
    await t.query('delete from memberships where workspace_id = $1', [ws.actor.workspaceId]);
    expect(await authenticateSession(t.db, left.token)).toBeNull();
    expect(await authenticateSession(t.db, undefined)).toBeNull();
    expect(await authenticateSession(t.db, 'made-up')).toBeNull();
  });

  it('prunes ended sessions and keeps live ones', async () => {
    const ws = await ownerWithPassword();
    const live = await signIn(t.db, { email: ws.email, password: PASSWORD });
    const expired = await signIn(t.db, { email: ws.email, password: PASSWORD });
    const idle = await signIn(t.db, { email: ws.email, password: PASSWORD });
    await t.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [
      hashToken(expired.token),
    ]);
    await t.query(`update sessions set last_seen_at = now() - interval '8 days' where token_hash = $1`, [
      hashToken(idle.token),
    ]);
    expect(await pruneSessions(t.db)).toBeGreaterThanOrEqual(2);
    const left = await t.query<{ token_hash: string }>('select token_hash from sessions where user_id = $1', [
      ws.actor.userId,
    ]);
    expect(left.map((r) => r.token_hash)).toEqual([hashToken(live.token)]);
  });
});

describe('invitations', () => {
  it('lets an invited person join with the role, once, and sign in afterwards', async () => {
    const ws = await ownerWithPassword();
    const email = `Member-${Date.now()}@Example.com`;
    const { invitation, token } = await createInvitation(t.db, ws.actor, { email, role: 'ADMIN' });
    expect(invitation).toMatchObject({ email: email.toLowerCase(), role: 'ADMIN', status: 'PENDING' });
    const session = await acceptInvitation(t.db, { token, name: 'Ada', password: PASSWORD });
    const info = await authenticateSession(t.db, session.token);
    expect(info?.actor).toMatchObject({ workspaceId: ws.actor.workspaceId, role: 'ADMIN', userName: 'Ada' });
    const again = await expectDomainError(
      acceptInvitation(t.db, { token, name: 'Eve', password: PASSWORD }),
      'VALIDATION_FAILED',
    );
    expect(again.details?.[0]?.path).toBe('token');
    expect((await findInvitations(t.db, ws.actor))[0]?.status).toBe('ACCEPTED');
    await signIn(t.db, { email, password: PASSWORD });
    // A member is not invited twice.
    await expectDomainError(createInvitation(t.db, ws.actor, { email, role: 'MEMBER' }), 'VALIDATION_FAILED');
  });

  it('refuses a revoked or expired link and lets only an owner invite an owner', async () => {
    const ws = await ownerWithPassword();
    const revoked = await createInvitation(t.db, ws.actor, {
      email: `r-${Date.now()}@example.com`,
      role: 'MEMBER',
    });
    expect((await revokeInvitation(t.db, ws.actor, revoked.invitation.id)).status).toBe('REVOKED');
    await expectDomainError(
      acceptInvitation(t.db, { token: revoked.token, name: 'R', password: PASSWORD }),
      'VALIDATION_FAILED',
    );
    const expired = await createInvitation(t.db, ws.actor, {
      email: `e-${Date.now()}@example.com`,
      role: 'MEMBER',
    });
    await t.query(`update invitations set expires_at = now() - interval '1 second' where id = $1`, [
      expired.invitation.id,
    ]);
    await expectDomainError(
      acceptInvitation(t.db, { token: expired.token, name: 'E', password: PASSWORD }),
      'VALIDATION_FAILED',
    );
    const admin = { ...ws.actor, role: 'ADMIN' as const };
    await expectDomainError(
      createInvitation(t.db, admin, { email: 'o@example.com', role: 'OWNER' }),
      'FORBIDDEN',
    );
    await expectDomainError(revokeInvitation(t.db, ws.actor, 'inv_nope'), 'NOT_FOUND');
  });
});
