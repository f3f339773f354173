import { describe, expect, it } from 'vitest';
import { LinkTallies } from './link-tallies.ts';

describe('LinkTallies', () => {
  it('keeps a count with the links made since, for as long as it is fresh', () => {
    let now = 0;
    const tallies = new LinkTallies({ ttlMs: 60_000, now: () => now });
    expect(tallies.known('a')).toBeUndefined();
    tallies.added('a', 5);
    expect(tallies.known('a')).toBeUndefined();
    tallies.counted('a', 120);
    tallies.added('a', 3);
    now = 59_999;
    expect(tallies.known('a')).toBe(123);
    now = 60_000;
    expect(tallies.known('a')).toBeUndefined();
    expect(tallies.size).toBe(0);
  });

  it('makes room by the side counted longest ago, the first to go stale', () => {
    let now = 0;
    const tallies = new LinkTallies({ maxEntries: 2, now: () => now });
    tallies.counted('a', 1);
    now = 10;
    tallies.counted('b', 2);
    expect(tallies.known('a')).toBe(1);
    tallies.counted('c', 3);
    expect(tallies.known('a')).toBeUndefined();
    expect(tallies.known('b')).toBe(2);
    expect(tallies.known('c')).toBe(3);
    // Counted again, a side goes to the back.
    tallies.counted('b', 4);
    tallies.counted('d', 5);
    expect(tallies.known('c')).toBeUndefined();
    expect(tallies.known('b')).toBe(4);
  });
});
