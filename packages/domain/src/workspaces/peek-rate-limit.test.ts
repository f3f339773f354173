import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeRateLimit } from '../rate-limit/consume-rate-limit.ts';
import { openTestDb, type TestDb } from '../testing/fixtures.ts';
import { peekRateLimit } from './peek-rate-limit.ts';

let t: TestDb;

beforeAll(async () => {
  t = await openTestDb();
});
afterAll(() => t?.close());

/** The start of a minute, far from the real clock so no other call shares its buckets. */
const MINUTE = Date.UTC(2032, 5, 1, 8, 0, 0);
const subject = () => `test:${randomUUID()}`;

const storedTotal = async (key: string) =>
  (
    await t.query<{ n: number }>(
      'select coalesce(sum(count), 0)::int as n from rate_limit_buckets where subject = $1',
      [key],
    )
  )[0]?.n;

describe('peekRateLimit', () => {
  it('reports the full limit and the rest of the minute for a subject with no requests', async () => {
    expect(await peekRateLimit(t.db, subject(), 120, MINUTE + 15_500)).toEqual({
      limit: 120,
      remaining: 120,
      resetSeconds: 45,
    });
  });

  it('answers what consumeRateLimit answered at the same instant, in this minute and the next', async () => {
    const key = subject();
    // Within one minute, then 30 s and 50 s into the next, where the previous bucket is weighted.
    const instants = [MINUTE + 10_000, MINUTE + 10_000, MINUTE + 40_000, MINUTE + 90_000, MINUTE + 110_000];
    for (const now of instants) {
      const consumed = await consumeRateLimit(t.db, key, 5, now);
      const { allowed: _allowed, retryAfterSeconds: _retry, ...state } = consumed;
      expect(await peekRateLimit(t.db, key, 5, now), `at +${now - MINUTE} ms`).toEqual(state);
    }
  });

  it('matches consumeRateLimit once the window is full, resetSeconds being the wait for a slot', async () => {
    const key = subject();
    const now = MINUTE + 20_000;
    let last = await consumeRateLimit(t.db, key, 3, now);
    for (let i = 0; i < 3; i++) last = await consumeRateLimit(t.db, key, 3, now);
    expect(last).toMatchObject({ allowed: false, remaining: 0 });
    expect(await peekRateLimit(t.db, key, 3, now)).toEqual({
      limit: 3,
      remaining: 0,
      resetSeconds: last.resetSeconds,
    });
  });

  it('counts nothing itself', async () => {
    const key = subject();
    await consumeRateLimit(t.db, key, 10, MINUTE + 1_000);
    for (let i = 0; i < 5; i++) await peekRateLimit(t.db, key, 10, MINUTE + 2_000);
    expect(await storedTotal(key)).toBe(1);
    expect((await peekRateLimit(t.db, key, 10, MINUTE + 2_000)).remaining).toBe(9);
  });

  it('ignores buckets that have left the window', async () => {
    const key = subject();
    await consumeRateLimit(t.db, key, 4, MINUTE);
    await consumeRateLimit(t.db, key, 4, MINUTE);
    expect((await peekRateLimit(t.db, key, 4, MINUTE + 59_000)).remaining).toBe(2);
    expect((await peekRateLimit(t.db, key, 4, MINUTE + 120_000)).remaining).toBe(4);
  });
});
