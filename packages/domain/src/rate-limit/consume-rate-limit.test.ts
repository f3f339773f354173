import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../testing/fixtures.ts';
import {
  consumeRateLimit,
  consumeRateLimitMany,
  type RateLimitResult,
  secondsUntilSlot,
} from './consume-rate-limit.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb({ max: 30 });
});
afterAll(() => t?.close());

/** The start of a minute, far from the real clock so no other call shares its buckets. */
const MINUTE = Date.UTC(2031, 0, 1, 12, 0, 0);
const subject = () => `test:${randomUUID()}`;

async function consumeMany(key: string, limit: number, count: number, now: number) {
  const results: RateLimitResult[] = [];
  for (let i = 0; i < count; i++) results.push(await consumeRateLimit(t.db, key, limit, now));
  return results;
}

const storedCount = async (key: string, windowStart: number) =>
  (
    await t.query<{ count: number }>(
      'select count from rate_limit_buckets where subject = $1 and window_start = $2',
      [key, new Date(windowStart)],
    )
  )[0]?.count;

describe('consumeRateLimit', () => {
  it('allows requests 1 to 120 and refuses the 121st with retryAfterSeconds of at least 1', async () => {
    const key = subject();
    const now = MINUTE + 10_000;
    const results = await consumeMany(key, 120, 121, now);
    expect(results.slice(0, 120).every((r) => r.allowed)).toBe(true);
    expect(results.slice(0, 120).map((r) => r.remaining)).toEqual(
      Array.from({ length: 120 }, (_, i) => 119 - i),
    );
    const refused = results[120]!;
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.limit).toBe(120);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // The window is full until the next minute: 50 s left in this one, then the weight of 120 must shrink.
    expect(refused.retryAfterSeconds).toBe(secondsUntilSlot(0, 120, 120, 10));
    expect(refused.resetSeconds).toBe(refused.retryAfterSeconds);
  });

  it('does not count refused requests', async () => {
    const key = subject();
    const now = MINUTE + 5_000;
    await consumeMany(key, 5, 5, now);
    const refused = await consumeMany(key, 5, 10, now);
    expect(refused.every((r) => !r.allowed && r.remaining === 0)).toBe(true);
    expect(await storedCount(key, MINUTE)).toBe(5);
    // Half a minute later the previous 5 weigh 2.5: exactly two more fit.
    const later = await consumeMany(key, 5, 3, MINUTE + 90_000);
    expect(later.map((r) => r.allowed)).toEqual([true, true, false]);
  });

  it('allows exactly the limit among 200 concurrent calls on a fresh subject', async () => {
    const key = subject();
    const now = MINUTE + 1_000;
    await t.warm(30);
    const results = await Promise.all(
      Array.from({ length: 200 }, () => consumeRateLimit(t.db, key, 120, now)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(120);
    expect(await storedCount(key, MINUTE)).toBe(120);
    expect(results.every((r) => r.remaining >= 0)).toBe(true);
  });

  it("weighs the previous minute's count by how much of it is still inside the window", async () => {
    const key = subject();
    await consumeMany(key, 120, 120, MINUTE + 10_000);
    // 30 s into the next minute the previous 120 weigh 60: 60 more fit, the 61st does not.
    const half = MINUTE + 90_000;
    const next = await consumeMany(key, 120, 61, half);
    expect(next.slice(0, 60).every((r) => r.allowed)).toBe(true);
    expect(next[59]?.remaining).toBe(0);
    const refused = next[60]!;
    expect(refused.allowed).toBe(false);
    // A slot frees as the weight keeps shrinking: retrying after Retry-After succeeds, just before it fails.
    expect(refused.retryAfterSeconds).toBe(1);
    expect((await consumeRateLimit(t.db, key, 120, half + 400)).allowed).toBe(false);
    expect((await consumeRateLimit(t.db, key, 120, half + refused.retryAfterSeconds * 1000)).allowed).toBe(
      true,
    );
  });

  it('forgets a minute that has left the window entirely', async () => {
    const key = subject();
    await consumeMany(key, 3, 3, MINUTE);
    expect((await consumeRateLimit(t.db, key, 3, MINUTE + 59_999)).allowed).toBe(false);
    const twoLater = await consumeMany(key, 3, 4, MINUTE + 120_000);
    expect(twoLater.map((r) => r.allowed)).toEqual([true, true, true, false]);
  });

  it('keeps subjects apart', async () => {
    const one = subject();
    const two = subject();
    await consumeMany(one, 2, 2, MINUTE);
    expect((await consumeRateLimit(t.db, one, 2, MINUTE)).allowed).toBe(false);
    expect((await consumeRateLimit(t.db, two, 2, MINUTE)).allowed).toBe(true);
  });

  it('never reports a negative remaining, even after the limit was lowered', async () => {
    const key = subject();
    await consumeMany(key, 120, 100, MINUTE + 1_000);
    const lowered = await consumeRateLimit(t.db, key, 10, MINUTE + 2_000);
    expect(lowered).toMatchObject({ allowed: false, remaining: 0, limit: 10 });
    expect(lowered.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const nextMinute = await consumeRateLimit(t.db, key, 10, MINUTE + 61_000);
    expect(nextMinute.allowed).toBe(false);
    expect(nextMinute.remaining).toBe(0);
    expect(nextMinute.resetSeconds).toBeGreaterThanOrEqual(1);
  });

  it('reports resetSeconds as the rest of the minute while requests remain', async () => {
    const result = await consumeRateLimit(t.db, subject(), 120, MINUTE + 15_500);
    expect(result).toMatchObject({ allowed: true, remaining: 119 });
    expect(result.resetSeconds).toBe(45);
  });
});

describe('secondsUntilSlot', () => {
  it.each([
    // [prev, cur, limit, elapsed, expected, why]
    [0, 0, 120, 10, 1, 'room now: still at least 1'],
    [0, 119, 120, 10, 1, 'one slot left now'],
    [0, 120, 120, 10, 51, 'full bucket: 50 s to the next minute, then 0.5 s for the weight to drop'],
    [0, 120, 120, 59.5, 1, 'half a second to the next minute plus half a second'],
    [120, 60, 120, 30, 1, 'the previous weight frees a slot after 0.5 s'],
    [120, 0, 120, 0, 1, 'previous full, nothing yet: 0.5 s'],
    [120, 100, 120, 0, 51, 'the previous weight must fall from 120 to 19'],
    [120, 119, 120, 10, 50, 'only the next minute frees a slot'],
    [0, 240, 120, 0, 91, 'over the limit (lowered): 60 s, then 30.25 s of the next minute'],
    [10, 5, 10, 0, 36, 'prev 10 must weigh at most 4: 36 s'],
  ])('prev %i, cur %i, limit %i at %f s gives %i (%s)', (prev, cur, limit, elapsed, expected) => {
    expect(secondsUntilSlot(prev, cur, limit, elapsed)).toBe(expected);
  });

  it('always answers whole seconds of at least 1', () => {
    for (let prev = 0; prev <= 130; prev += 13) {
      for (let cur = 0; cur <= 130; cur += 13) {
        for (const elapsed of [0, 0.3, 17.9, 59.99]) {
          const wait = secondsUntilSlot(prev, cur, 120, elapsed);
          expect(Number.isInteger(wait)).toBe(true);
          expect(wait).toBeGreaterThanOrEqual(1);
          expect(wait).toBeLessThanOrEqual(120);
        }
      }
    }
  });
});

describe('consumeRateLimitMany', () => {
  it('grants as many of a batch as fit, in order, and agrees with one-by-one counting', async () => {
    const key = subject();
    const now = MINUTE + 5_000;
    const first = await consumeRateLimitMany(t.db, key, 5, 3, now);
    expect(first.granted).toBe(3);
    expect([0, 1, 2].map((i) => first.resultOf(i).remaining)).toEqual([4, 3, 2]);
    const second = await consumeRateLimitMany(t.db, key, 5, 3, now);
    expect(second.granted).toBe(2);
    expect(second.resultOf(1)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = second.resultOf(2);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await storedCount(key, MINUTE)).toBe(5);
    // Refused requests are not counted, and a single call sees the same window.
    expect((await consumeRateLimit(t.db, key, 5, now)).allowed).toBe(false);
    expect(await storedCount(key, MINUTE)).toBe(5);
  });

  it('weighs the previous minute like consumeRateLimit', async () => {
    const key = subject();
    await consumeRateLimitMany(t.db, key, 10, 10, MINUTE + 30_000);
    // Half-way through the next minute half of the previous 10 still counts: 5 fit.
    const next = await consumeRateLimitMany(t.db, key, 10, 8, MINUTE + 60_000 + 30_000);
    expect(next.granted).toBe(5);
    expect(next.resultOf(4)).toMatchObject({ allowed: true, remaining: 0 });
    expect(next.resultOf(5).allowed).toBe(false);
  });
});
