import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pruneRateLimitBuckets,
  releaseRateLimit,
  secondsUntilSlot,
} from '../rate-limit/consume-rate-limit.ts';
import { expectDomainError, newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { setPassword } from './set-password.ts';
import { signIn } from './sign-in.ts';
import { addressKey, type SignInLimits } from './sign-in-throttle.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb({ max: 20 });
});
afterAll(() => t?.close());

const PASSWORD = 'correct horse battery';
const WRONG = 'not the password';
let counter = 0;
/** A fresh documentation-range address, so tests never share a throttle by accident. */
const newAddress = () => `203.0.113.${++counter}`;

async function owner() {
  const ws = await newWorkspace(t.db);
  const [user] = await t.query<{ email: string }>('select email from users where id = $1', [ws.actor.userId]);
  await setPassword(t.db, user!.email, PASSWORD);
  return user!.email;
}

const attempt = (email: string, password: string, address: string, limits: SignInLimits) =>
  signIn(t.db, { email, password }, { address, limits });

describe('addressKey', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['192.0.2.1:51234', '192.0.2.1'],
    ['[2001:db8:1:2::9]:443', '2001:db8:1:2::/64'],
    ['unknown', 'other:unknown'],
  ])('%s is counted as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});

describe('the per-address throttle', () => {
  const limits = { perAddress: 3, perAccount: 10, global: 1_000 };

  it('refuses an address after its failures, whatever the accounts, with Retry-After; others go on', async () => {
    const address = newAddress();
    const email = await owner();
    // Password spraying: one password against many accounts.
    for (let i = 0; i < 3; i++) {
      await expectDomainError(attempt(`nobody${i}@example.com`, WRONG, address, limits), 'UNAUTHORIZED');
    }
    const refused = await expectDomainError(attempt(email, PASSWORD, address, limits), 'RATE_LIMITED');
    const retryAfter = refused.retryAfterSeconds ?? 0;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    expect(refused.message).toContain('from this address');
    await attempt(email, PASSWORD, newAddress(), limits);
  });

  it('counts failures only: successful sign-ins never use it up', async () => {
    const address = newAddress();
    const email = await owner();
    for (let i = 0; i < 6; i++) await attempt(email, PASSWORD, address, limits);
    await expectDomainError(attempt(email, WRONG, address, limits), 'UNAUTHORIZED');
    await attempt(email, PASSWORD, address, limits);
  });

  it('checks exactly as many passwords as the limit allows when attempts arrive at once', async () => {
    const address = newAddress();
    await t.warm(20);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        attempt(`spray${i}@example.com`, WRONG, address, { ...limits, perAddress: 5 }).then(
          () => 'OK',
          (error: { code?: string }) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((c) => c === 'UNAUTHORIZED')).toHaveLength(5);
    expect(outcomes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(15);
  });
});

describe('the account lock', () => {
  it('locks an account for the address that failed, not for its owner elsewhere', async () => {
    const limits = { perAddress: 100, perAccount: 4, global: 1_000 };
    const email = await owner();
    const attacker = newAddress();
    for (let i = 0; i < 4; i++)
      await expectDomainError(attempt(email, WRONG, attacker, limits), 'UNAUTHORIZED');
    const locked = await expectDomainError(attempt(email, PASSWORD, attacker, limits), 'RATE_LIMITED');
    expect(locked.message).toContain('for this account');
    await attempt(email, PASSWORD, newAddress(), limits);
    // The attacker's address may still sign in to other accounts (up to its own limit).
    await attempt(await owner(), PASSWORD, attacker, limits);
  });
});

describe('the global throttle', () => {
  it('past the global count, refuses addresses that failed recently and still checks the others', async () => {
    const limits = { perAddress: 100, perAccount: 100, global: 3 };
    const email = await owner();
    // Addresses without failures always get their password checked: these three fill the count.
    const failed = newAddress();
    for (const address of [failed, newAddress(), newAddress()]) {
      await expectDomainError(
        attempt(`nobody-${address}@example.com`, WRONG, address, limits),
        'UNAUTHORIZED',
      );
    }
    // `failed` has a failure in the window: refused even with the right password.
    const refused = await expectDomainError(attempt(email, PASSWORD, failed, limits), 'RATE_LIMITED');
    expect(refused.message).toContain('overall');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // An address without failures gets its password checked: right signs in, wrong is a 401...
    await attempt(email, PASSWORD, newAddress(), limits);
    const fresh = newAddress();
    await expectDomainError(attempt(email, WRONG, fresh, limits), 'UNAUTHORIZED');
    // ...after which it too has failed recently.
    await expectDomainError(attempt(email, PASSWORD, fresh, limits), 'RATE_LIMITED');
  });
});

describe('long rate-limit windows', () => {
  it('computes the wait in a 15-minute window', () => {
    // Full bucket 10 s in: 890 s to the next bucket, then 45 s for 20 to weigh 19.
    expect(secondsUntilSlot(0, 20, 20, 10, 900)).toBe(935);
    expect(secondsUntilSlot(0, 19, 20, 10, 900)).toBe(1);
  });

  it('releases a counted request without going below zero', async () => {
    const windowStart = Date.UTC(2031, 0, 1, 12, 0, 0);
    await t.query('insert into rate_limit_buckets (subject, window_start, count) values ($1, $2, 1)', [
      'test:release',
      new Date(windowStart),
    ]);
    await releaseRateLimit(t.db, 'test:release', windowStart);
    await releaseRateLimit(t.db, 'test:release', windowStart);
    const [row] = await t.query<{ count: number }>(
      'select count from rate_limit_buckets where subject = $1',
      ['test:release'],
    );
    expect(row?.count).toBe(0);
  });

  it('keeps buckets as long as a 15-minute window can weigh them', async () => {
    await t.query(
      `insert into rate_limit_buckets (subject, window_start, count)
       values ('test:prune-20', now() - interval '20 minutes', 1), ('test:prune-31', now() - interval '31 minutes', 1)`,
    );
    await pruneRateLimitBuckets(t.db);
    const rows = await t.query<{ subject: string }>(
      `select subject from rate_limit_buckets where subject like 'test:prune-%'`,
    );
    expect(rows.map((r) => r.subject)).toEqual(['test:prune-20']);
  });
});
