import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../shared/ids.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import {
  acceptInvitation,
  acceptInvitationInput,
  authenticateSession,
  changePassword,
  createInvitation,
  endSession,
  findInvitations,
  hashPassword,
  hashToken,
  pruneSessions,
  revokeInvitation,
  setPassword,
  signIn,
  verifyPassword,
} from './index.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

const PASSWORD = 'correct horse battery';
/** The client address of sign-ins; each test file has a database of its own, throttles included. */
const here = { address: '192.0.2.10' };
let nextAddress = 0;
const elsewhere = () => ({ address: `198.51.100.${++nextAddress}` });

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
    const session = await signIn(t.db, { email: ws.email.toUpperCase(), password: PASSWORD }, here);
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
      messages.push((await expectDomainError(signIn(t.db, attempt, here), 'UNAUTHORIZED')).message);
    }
    expect(new Set(messages)).toEqual(new Set(['Wrong email or password']));
  });

  it('locks an account after 10 failures from one address, for that address only', async () => {
    const ws = await ownerWithPassword();
    const attacker = elsewhere();
    for (let i = 0; i < 10; i++) {
      await expectDomainError(
        signIn(t.db, { email: ws.email, password: 'wrong password!' }, attacker),
        'UNAUTHORIZED',
      );
    }
    const error = await expectDomainError(
      signIn(t.db, { email: ws.email, password: PASSWORD }, attacker),
      'RATE_LIMITED',
    );
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // The owner, elsewhere, still gets in.
    await signIn(t.db, { email: ws.email, password: PASSWORD }, elsewhere());
  });

  it('ends a session on sign-out, after expiry, after a week idle, and when the user leaves', async () => {
    const ws = await ownerWithPassword();
    const signOut = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
    await endSession(t.db, signOut.token);
    expect(await authenticateSession(t.db, signOut.token)).toBeNull();

    const expired = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
    await t.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [
      hashToken(expired.token),
    ]);
    expect(await authenticateSession(t.db, expired.token)).toBeNull();

    const idle = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
    await t.query(`update sessions set last_seen_at = now() - interval '8 days' where token_hash = $1`, [
      hashToken(idle.token),
    ]);
    expect(await authenticateSession(t.db, idle.token)).toBeNull();

    const left = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
    expect(await authenticateSession(t.db, left.token)).not.toBeNull();
    await t.query('delete from memberships where workspace_id = $1', [ws.actor.workspaceId]);
    expect(await authenticateSession(t.db, left.token)).toBeNull();
    expect(await authenticateSession(t.db, undefined)).toBeNull();
    expect(await authenticateSession(t.db, 'made-up')).toBeNull();
  });

  it('prunes ended sessions and keeps live ones', async () => {
    const ws = await ownerWithPassword();
    const live = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
    const expired = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
    const idle = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
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
    const session = await acceptInvitation(t.db, { token, name: 'Ada', password: PASSWORD }, here);
    const info = await authenticateSession(t.db, session.token);
    expect(info?.actor).toMatchObject({ workspaceId: ws.actor.workspaceId, role: 'ADMIN', userName: 'Ada' });
    const again = await expectDomainError(
      acceptInvitation(t.db, { token, name: 'Eve', password: PASSWORD }, here),
      'VALIDATION_FAILED',
    );
    expect(again.details?.[0]?.path).toBe('token');
    expect((await findInvitations(t.db, ws.actor))[0]?.status).toBe('ACCEPTED');
    await signIn(t.db, { email, password: PASSWORD }, here);
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
      acceptInvitation(t.db, { token: revoked.token, name: 'R', password: PASSWORD }, here),
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
      acceptInvitation(t.db, { token: expired.token, name: 'E', password: PASSWORD }, here),
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

describe('changing a password ends the other sessions', () => {
  const sessionCount = async (userId: string) =>
    (await t.query<{ n: number }>('select count(*)::int as n from sessions where user_id = $1', [userId]))[0]!
      .n;

  it('ends every session of the user when the password is set (CLI, reset)', async () => {
    const ws = await ownerWithPassword();
    const one = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
    const two = await signIn(t.db, { email: ws.email, password: PASSWORD }, elsewhere());
    const other = await ownerWithPassword('Other');
    const bystander = await signIn(t.db, { email: other.email, password: PASSWORD }, here);
    const result = await setPassword(t.db, ws.email, 'a brand new password');
    expect(result).toEqual({ userId: ws.actor.userId, sessionsEnded: 2 });
    expect(await authenticateSession(t.db, one.token)).toBeNull();
    expect(await authenticateSession(t.db, two.token)).toBeNull();
    expect(await authenticateSession(t.db, bystander.token)).not.toBeNull();
    await expectDomainError(signIn(t.db, { email: ws.email, password: PASSWORD }, here), 'UNAUTHORIZED');
    await signIn(t.db, { email: ws.email, password: 'a brand new password' }, here);
  });

  it('keeps the session that changed it and ends the others; needs the current password', async () => {
    const ws = await ownerWithPassword();
    const mine = await signIn(t.db, { email: ws.email, password: PASSWORD }, here);
    const stolen = await signIn(t.db, { email: ws.email, password: PASSWORD }, elsewhere());
    const wrong = await expectDomainError(
      changePassword(
        t.db,
        { token: mine.token, currentPassword: 'not my password', newPassword: 'a brand new password' },
        here,
      ),
      'UNAUTHORIZED',
    );
    expect(wrong.message).toBe('Wrong email or password');
    const short = await expectDomainError(
      changePassword(t.db, { token: mine.token, currentPassword: PASSWORD, newPassword: 'short' }, here),
      'VALIDATION_FAILED',
    );
    expect(short.details?.[0]?.path).toBe('newPassword');
    expect(await sessionCount(ws.actor.userId)).toBe(2);

    const changed = await changePassword(
      t.db,
      { token: mine.token, currentPassword: PASSWORD, newPassword: 'a brand new password' },
      here,
    );
    expect(changed).toEqual({ sessionsEnded: 1 });
    expect(await authenticateSession(t.db, mine.token)).not.toBeNull();
    expect(await authenticateSession(t.db, stolen.token)).toBeNull();
    await signIn(t.db, { email: ws.email, password: 'a brand new password' }, here);
    await expectDomainError(
      changePassword(t.db, { token: stolen.token, currentPassword: 'x', newPassword: PASSWORD }, here),
      'UNAUTHORIZED',
    );
  });
});

describe('an invitation to an address that already has an account', () => {
  it('asks for that account’s password and never replaces it or the name', async () => {
    const member = await ownerWithPassword('Theirs');
    const inviter = await ownerWithPassword('Inviting');
    const { invitation, token } = await createInvitation(t.db, inviter.actor, {
      email: member.email,
      role: 'MEMBER',
    });
    const [before] = await t.query<{ name: string; password_hash: string }>(
      'select name, password_hash from users where id = $1',
      [member.actor.userId],
    );
    const takeover = await expectDomainError(
      acceptInvitation(t.db, { token, name: 'Mallory', password: 'the inviter’s choice' }, elsewhere()),
      'UNAUTHORIZED',
    );
    expect(takeover.message).toContain('already has an account');
    // Nothing changed, and the link is still good for its owner.
    const [after] = await t.query<{ name: string; password_hash: string }>(
      'select name, password_hash from users where id = $1',
      [member.actor.userId],
    );
    expect(after).toEqual(before);
    expect((await findInvitations(t.db, inviter.actor)).find((i) => i.id === invitation.id)?.status).toBe(
      'PENDING',
    );

    const session = await acceptInvitation(t.db, { token, name: 'Renamed', password: PASSWORD }, here);
    const info = await authenticateSession(t.db, session.token);
    expect(info?.actor).toMatchObject({
      userId: member.actor.userId,
      workspaceId: inviter.actor.workspaceId,
      role: 'MEMBER',
      userName: before!.name,
    });
    await signIn(t.db, { email: member.email, password: PASSWORD }, here);
  });

  it('lets the invitation set the password of an account nobody holds yet, ending its sessions', async () => {
    const inviter = await ownerWithPassword('Inviting');
    const email = `bare-${Date.now()}@example.com`;
    await t.query('insert into users (id, email, name) values ($1, $2, $3)', [newId('user'), email, 'Bare']);
    const { token } = await createInvitation(t.db, inviter.actor, { email, role: 'MEMBER' });
    const session = await acceptInvitation(t.db, { token, name: 'Now named', password: PASSWORD }, here);
    expect((await authenticateSession(t.db, session.token))?.actor.userName).toBe('Now named');
  });

  it('refuses control characters in the name', async () => {
    const inviter = await ownerWithPassword('Inviting');
    const { token } = await createInvitation(t.db, inviter.actor, {
      email: `nul-${Date.now()}@example.com`,
      role: 'MEMBER',
    });
    const parsed = acceptInvitationInput.safeParse({ token, name: 'Ada\u0000', password: PASSWORD });
    expect(parsed.success).toBe(false);
  });
});
