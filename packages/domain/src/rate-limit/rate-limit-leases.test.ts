import { describe, expect, it } from 'vitest';
import { RateLimitLeases } from './rate-limit-leases.ts';

const WINDOW = { windowStart: 0, windowEnd: 60_000 };

/** Notes a statement that granted everything asked (`waiting` requests and `asked` extra), leaving `remaining`. */
function counted(
  leases: RateLimitLeases<string>,
  now: number,
  fields: { waiting: number; asked: number; remaining: number; limit?: number; grant?: string },
) {
  leases.keep('ws:1', {
    limit: fields.limit ?? 10_000,
    waiting: fields.waiting,
    asked: fields.asked,
    granted: fields.waiting + fields.asked,
    remaining: fields.remaining,
    grant: fields.grant ?? `grant@${now}`,
    now,
    ...WINDOW,
  });
}

describe('RateLimitLeases', () => {
  it('asks nothing extra for a subject it has not counted, nor after a quiet spell', () => {
    const leases = new RateLimitLeases<string>();
    expect(leases.extra('ws:1', 10_000, 1, 0)).toBe(0);
    counted(leases, 0, { waiting: 1, asked: 0, remaining: 9_999 });
    counted(leases, 100, { waiting: 3, asked: 0, remaining: 9_996 });
    expect(leases.extra('ws:1', 10_000, 1, 200)).toBe(3);
    // Counted again more than a lease's time later: a quiet subject starts without a lease.
    expect(leases.extra('ws:1', 10_000, 1, 1_101)).toBe(0);
  });

  it('doubles a busy subject’s lease while it runs dry, up to the largest share of the limit', () => {
    const leases = new RateLimitLeases<string>();
    counted(leases, 0, { waiting: 1, asked: 0, remaining: 9_999 });
    const sizes: number[] = [];
    let now = 1;
    let remaining = 9_999;
    for (let i = 0; i < 9; i++) {
      const asked = leases.extra('ws:1', 10_000, 1, now);
      sizes.push(asked);
      remaining -= 1 + asked;
      counted(leases, now, { waiting: 1, asked, remaining });
      // Every token of the lease is taken before the next statement.
      for (let t = 0; t < asked; t++) expect(leases.take('ws:1', 10_000, now)).toBeDefined();
      expect(leases.take('ws:1', 10_000, now)).toBeUndefined();
      now += 10;
    }
    expect(sizes).toEqual([0, 1, 2, 4, 8, 16, 32, 64, 100]);
  });

  it('leases only from the upper half of the limit, and never for a small limit', () => {
    const leases = new RateLimitLeases<string>();
    counted(leases, 0, { waiting: 1, asked: 0, remaining: 5_100 });
    counted(leases, 1, { waiting: 50, asked: 0, remaining: 5_050 });
    // 5,050 left of 10,000: 50 above the half, 10 of them for the waiting requests.
    expect(leases.extra('ws:1', 10_000, 10, 2)).toBe(40);
    expect(leases.extra('ws:1', 10_000, 60, 2)).toBe(0);

    const small = new RateLimitLeases<string>();
    counted(small, 0, { waiting: 1, asked: 0, remaining: 150, limit: 199 });
    counted(small, 1, { waiting: 20, asked: 0, remaining: 130, limit: 199 });
    expect(small.extra('ws:1', 199, 1, 2)).toBe(0);
  });

  it('hands out the lease’s tokens in order, none after it ended, and ends it for another limit', () => {
    const leases = new RateLimitLeases<string>({ ttlMs: 1_000 });
    counted(leases, 0, { waiting: 2, asked: 4, remaining: 9_000, grant: 'g' });
    expect(leases.take('ws:2', 10_000, 10)).toBeUndefined();
    expect(leases.take('ws:1', 10_000, 10)).toEqual({ grant: 'g', index: 2 });
    expect(leases.take('ws:1', 10_000, 10)).toEqual({ grant: 'g', index: 3 });
    expect(leases.take('ws:1', 10_000, 1_000)).toBeUndefined();

    counted(leases, 1_000, { waiting: 1, asked: 5, remaining: 8_000, grant: 'h' });
    expect(leases.take('ws:1', 10_000, 1_001)).toEqual({ grant: 'h', index: 1 });
    // The workspace's limit changed: the lease counted under the old one ends at once.
    expect(leases.take('ws:1', 50, 1_002)).toBeUndefined();
    expect(leases.held).toBe(0);
    // Both leases' unused tokens (2 and 4), in one entry for their bucket.
    expect(leases.expired(1_002)).toEqual([{ subject: 'ws:1', windowStart: 0, count: 6 }]);
  });

  it('gives back the unused tokens of a lease that ended, from the bucket they were counted in', () => {
    const leases = new RateLimitLeases<string>({ ttlMs: 1_000 });
    counted(leases, 0, { waiting: 1, asked: 0, remaining: 9_999 });
    counted(leases, 10, { waiting: 1, asked: 0, remaining: 9_998 });
    counted(leases, 20, { waiting: 1, asked: 8, remaining: 9_989 });
    leases.take('ws:1', 10_000, 30);
    expect(leases.expired(999)).toEqual([]);
    expect(leases.busy).toBe(true);
    expect(leases.expired(1_020)).toEqual([{ subject: 'ws:1', windowStart: 0, count: 7 }]);
    expect(leases.busy).toBe(false);
    // A lease that ended unused is followed by a smaller one.
    expect(leases.extra('ws:1', 10_000, 1, 1_020)).toBe(1);
  });

  it('ends a lease at the end of its window, and every lease when asked to', () => {
    const leases = new RateLimitLeases<string>({ ttlMs: 1_000 });
    leases.keep('ws:1', {
      limit: 10_000,
      waiting: 1,
      asked: 4,
      granted: 5,
      remaining: 9_000,
      windowStart: 60_000,
      windowEnd: 120_000,
      grant: 'g',
      now: 119_900,
    });
    expect(leases.take('ws:1', 10_000, 120_000)).toBeUndefined();
    expect(leases.expired(120_000)).toEqual([{ subject: 'ws:1', windowStart: 60_000, count: 4 }]);

    counted(leases, 0, { waiting: 1, asked: 6, remaining: 9_000 });
    expect(leases.endAll()).toEqual([{ subject: 'ws:1', windowStart: 0, count: 6 }]);
    expect(leases.held).toBe(0);
  });

  it('keeps only what the statement granted: a lease cut short by the limit holds fewer tokens', () => {
    const leases = new RateLimitLeases<string>();
    leases.keep('ws:1', {
      limit: 10_000,
      waiting: 3,
      asked: 10,
      granted: 5,
      remaining: 0,
      grant: 'g',
      now: 0,
      ...WINDOW,
    });
    expect(leases.take('ws:1', 10_000, 1)?.index).toBe(3);
    expect(leases.take('ws:1', 10_000, 1)?.index).toBe(4);
    expect(leases.take('ws:1', 10_000, 1)).toBeUndefined();
  });
});
