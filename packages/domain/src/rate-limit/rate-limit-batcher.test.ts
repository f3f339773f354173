import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../testing/fixtures.ts';
import { consumeRateLimit } from './consume-rate-limit.ts';
import { RateLimitBatcher } from './rate-limit-batcher.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb({ max: 10 });
});
afterAll(() => t?.close());

/** Ten seconds into a minute far from the real clock, so no other call shares its buckets. */
const NOW = Date.UTC(2032, 0, 1, 12, 0, 10);
const subject = () => `test:${randomUUID()}`;

describe('RateLimitBatcher', () => {
  it('grants exactly the limit among 400 concurrent requests, in far fewer statements than requests', async () => {
    const batcher = new RateLimitBatcher(t.db, { now: () => NOW });
    const key = subject();
    const results = await Promise.all(Array.from({ length: 400 }, () => batcher.consume(key, 120)));
    expect(results.filter((r) => r.allowed)).toHaveLength(120);
    expect(batcher.counts.requests).toBe(400);
    // The first request goes alone, the rest wait for it and go together.
    expect(batcher.counts.statements).toBe(2);
    // Each granted request is told a different remaining count, 119 down to 0.
    const remaining = results.filter((r) => r.allowed).map((r) => r.remaining);
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    for (const refused of results.filter((r) => !r.allowed)) {
      expect(refused.remaining).toBe(0);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
    // The stored count is what was granted: refused requests are not counted.
    const stored = await t.query<{ count: number }>(
      'select count from rate_limit_buckets where subject = $1',
      [key],
    );
    expect(stored.map((row) => row.count)).toEqual([120]);
  });

  it('counts several subjects in one statement, each against its own limit', async () => {
    const batcher = new RateLimitBatcher(t.db, { now: () => NOW });
    const subjects = [subject(), subject(), subject()];
    const limits = [1, 5, 50];
    const calls = subjects.flatMap((s, i) =>
      Array.from({ length: 10 }, () => batcher.consume(s, limits[i]!)),
    );
    const results = await Promise.all(calls);
    const allowed = subjects.map(
      (_, i) => results.slice(i * 10, i * 10 + 10).filter((r) => r.allowed).length,
    );
    expect(allowed).toEqual([1, 5, 10]);
    expect(batcher.counts.statements).toBe(2);
  });

  it('agrees with batchers in other processes: they share the counts under the row lock', async () => {
    const key = subject();
    const batchers = Array.from({ length: 3 }, () => new RateLimitBatcher(t.db, { now: () => NOW }));
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => batchers[i % 3]!.consume(key, 100)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(100);
    // And with one-by-one counting, which sees the same bucket.
    expect((await consumeRateLimit(t.db, key, 100, NOW)).allowed).toBe(false);
    expect((await consumeRateLimit(t.db, key, 101, NOW)).allowed).toBe(true);
  });

  it('refuses no request while the shared count is below the limit', async () => {
    const key = subject();
    const batcher = new RateLimitBatcher(t.db, { now: () => NOW });
    for (let round = 0; round < 4; round++) {
      const results = await Promise.all(Array.from({ length: 25 }, () => batcher.consume(key, 100)));
      expect(results.every((r) => r.allowed)).toBe(true);
    }
    expect((await batcher.consume(key, 100)).allowed).toBe(false);
  });

  it('holds the lower limit for every request waiting on a subject when it was lowered', async () => {
    const key = subject();
    const batcher = new RateLimitBatcher(t.db, { now: () => NOW });
    const first = batcher.consume(subject(), 10);
    const waiting = [batcher.consume(key, 10), batcher.consume(key, 2), batcher.consume(key, 10)];
    await first;
    expect((await Promise.all(waiting)).map((r) => r.allowed)).toEqual([true, true, false]);
  });

  it('answers a busy subject far from its limit mostly from leases, and gives back what they did not use', async () => {
    let now = NOW;
    const batcher = new RateLimitBatcher(t.db, { now: () => now });
    const key = subject();
    let allowed = 0;
    for (let i = 0; i < 2_000; i++) {
      if ((await batcher.consume(key, 1_000_000)).allowed) allowed++;
      now += 1;
    }
    expect(allowed).toBe(2_000);
    // Leases double while they run dry: a dozen statements or so instead of 2,000.
    expect(batcher.counts.statements).toBeLessThan(40);
    expect(batcher.counts.leased).toBeGreaterThan(1_900);
    await batcher.close();
    expect(await storedCount(key)).toBe(2_000);
  });

  it('never lets more than the limit through with leases in several processes, and gives back the rest', async () => {
    let now = NOW;
    const key = subject();
    const batchers = Array.from({ length: 3 }, () => new RateLimitBatcher(t.db, { now: () => now }));
    let allowed = 0;
    for (let round = 0; round < 60; round++) {
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => batchers[i % 3]!.consume(key, 1_000)),
      );
      allowed += results.filter((r) => r.allowed).length;
      now += 5;
    }
    expect(batchers.reduce((sum, b) => sum + b.counts.leased, 0)).toBeGreaterThan(0);
    // At most the limit; short of it only by what other processes held on lease when it was
    // reached (a lease is at most 1 % of the limit).
    expect(allowed).toBeLessThanOrEqual(1_000);
    expect(allowed).toBeGreaterThanOrEqual(1_000 - 3 * 10);
    await Promise.all(batchers.map((b) => b.close()));
    // What the leases did not use went back: the bucket holds exactly the requests let through.
    expect(await storedCount(key)).toBe(allowed);
  });

  it('gives back the unused tokens of a lease once its time is up', async () => {
    let now = NOW;
    const batcher = new RateLimitBatcher(t.db, { now: () => now, leases: { ttlMs: 100 } });
    const key = subject();
    // One by one: counted alone twice, then leases of 1 and 2 tokens, one of which is left.
    for (let i = 0; i < 6; i++) {
      expect((await batcher.consume(key, 100_000)).allowed).toBe(true);
      now += 1;
    }
    expect(batcher.counts).toMatchObject({ statements: 4, leased: 2 });
    expect(await storedCount(key)).toBe(7);
    now += 100;
    await expect.poll(() => storedCount(key), { timeout: 5_000 }).toBe(6);
    expect(batcher.counts.released).toBe(1);
    await batcher.close();
  });

  it('gives a lease back before counting under a changed limit', async () => {
    let now = NOW;
    const batcher = new RateLimitBatcher(t.db, { now: () => now });
    const key = subject();
    // As above: six requests let through, one leased token left unused.
    for (let i = 0; i < 6; i++) {
      await batcher.consume(key, 1_000_000);
      now += 1;
    }
    expect(await storedCount(key)).toBe(7);
    // Lowered to 8: two more fit, not the one the unused token would leave.
    const results = await Promise.all([0, 1, 2].map(() => batcher.consume(key, 8)));
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(await storedCount(key)).toBe(8);
    await batcher.close();
  });

  it('counts every request in a statement when leases are off', async () => {
    let now = NOW;
    const batcher = new RateLimitBatcher(t.db, { now: () => now, leases: false });
    const key = subject();
    for (let i = 0; i < 20; i++) {
      await batcher.consume(key, 1_000_000);
      now += 1;
    }
    expect(batcher.counts).toMatchObject({ statements: 20, leased: 0 });
  });

  it('fails every waiting request when the statement fails, and counts the next ones again', async () => {
    const batcher = new RateLimitBatcher(t.db, { now: () => NOW, maxBatch: 2 });
    const bad = batcher.consume(subject(), 10, 60 * 60_000);
    await expect(bad).rejects.toThrow('A rate-limit window is at most');
    const results = await Promise.all([subject(), subject(), subject()].map((s) => batcher.consume(s, 1)));
    expect(results.every((r) => r.allowed)).toBe(true);
  });
});

async function storedCount(key: string): Promise<number> {
  const rows = await t.query<{ count: number }>('select count from rate_limit_buckets where subject = $1', [
    key,
  ]);
  return rows.reduce((sum, row) => sum + row.count, 0);
}
