import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextRetryDelayMs, parseRetryAfter, RETRY_DELAYS_SECONDS } from './retry-schedule.ts';

const exact = { scale: 1, jitter: 0.2, random: () => 0.5 };

describe('the retry schedule', () => {
  it('follows the Standard Webhooks schedule: 10 attempts over about 3 days', () => {
    expect(MAX_ATTEMPTS).toBe(10);
    const delays = RETRY_DELAYS_SECONDS.map((_, i) => nextRetryDelayMs(i + 1, exact)! / 1000);
    expect(delays).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400]);
    const total = delays.reduce((a, b) => a + b, 0) / 3600;
    expect(total).toBeGreaterThan(70);
    expect(total).toBeLessThan(76);
    expect(nextRetryDelayMs(10, exact)).toBeNull();
  });

  it('adds at most 20 % jitter either way', () => {
    expect(nextRetryDelayMs(2, { ...exact, random: () => 0 })).toBe(240_000);
    expect(nextRetryDelayMs(2, { ...exact, random: () => 1 })).toBe(360_000);
  });

  it('honours a longer Retry-After up to an hour, never a shorter one', () => {
    expect(nextRetryDelayMs(1, exact, 120)).toBe(120_000);
    expect(nextRetryDelayMs(1, exact, 999_999)).toBe(3_600_000);
    expect(nextRetryDelayMs(3, exact, 10)).toBe(1_800_000);
  });

  it('scales for tests', () => {
    expect(nextRetryDelayMs(2, { ...exact, scale: 0.001 })).toBe(300);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-21T09:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
