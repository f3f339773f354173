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

  it('makes room by the side used longest ago', () => {
    const tallies = new LinkTallies({ maxEntries: 2 });
    tallies.counted('a', 1);
    tallies.counted('b', 2);
    expect(tallies.known('a')).toBe(1);
    tallies.counted('c', 3);
    expect(tallies.known('b')).toBeUndefined();
    expect(tallies.known('a')).toBe(1);
    expect(tallies.known('c')).toBe(3);
  });
});
