import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalescer.ts';

/** A flush that records its batches and completes when told to. */
function controlledFlush() {
  const batches: {
    key: string;
    items: number[];
    done: (results: (number | Error)[]) => void;
    fail: (e: Error) => void;
  }[] = [];
  const flush = (key: string, items: number[]) =>
    new Promise<(number | Error)[]>((resolve, reject) => {
      batches.push({ key, items, done: resolve, fail: reject });
    });
  return { batches, flush };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Coalescer', () => {
  it('sends the first call alone, then everything that arrived meanwhile as one batch', async () => {
    const { batches, flush } = controlledFlush();
    const c = new Coalescer(flush);
    const first = c.submit('a', 1);
    const later = [c.submit('a', 2), c.submit('a', 3), c.submit('a', 4)];
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0]!.done([10]);
    expect(await first).toBe(10);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    batches[1]!.done([20, new Error('item 3 refused'), 40]);
    const settled = await Promise.allSettled(later);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      20,
      'item 3 refused',
      40,
    ]);
  });

  it('keeps keys apart, runs up to `parallel` batches of a key, and fails a whole batch when its flush throws', async () => {
    const { batches, flush } = controlledFlush();
    const c = new Coalescer(flush, { parallel: 2, maxBatch: 2 });
    const a = [c.submit('a', 1), c.submit('a', 2), c.submit('a', 3), c.submit('a', 4), c.submit('a', 5)];
    const b = c.submit('b', 9);
    expect(batches.map((x) => [x.key, x.items])).toEqual([
      ['a', [1]],
      ['a', [2]],
      ['b', [9]],
    ]);
    batches[0]!.fail(new Error('database unreachable'));
    await expect(a[0]).rejects.toThrow('database unreachable');
    await tick();
    // The next batch of `a` takes at most maxBatch of the waiting calls.
    expect(batches[3]).toMatchObject({ key: 'a', items: [3, 4] });
    batches[1]!.done([2]);
    batches[2]!.done([90]);
    batches[3]!.done([3, 4]);
    expect(await b).toBe(90);
    await tick();
    batches[4]!.done([5]);
    expect(await Promise.all(a.slice(1))).toEqual([2, 3, 4, 5]);
  });
});

describe('Coalescer isolation', () => {
  it('tries a batch again item by item when its failure came from one item, so only that item fails', async () => {
    const sent: number[][] = [];
    const c = new Coalescer<number, number>(
      async (_key, items) => {
        sent.push(items);
        if (items.includes(3))
          throw Object.assign(new Error('item 3 holds what cannot be stored'), { bad: true });
        return items.map((n) => n * 10);
      },
      { isolate: (error) => 'bad' in error },
    );
    const first = c.submit('k', 1);
    const rest = [2, 3, 4].map((n) => c.submit('k', n));
    expect(await first).toBe(10);
    const settled = await Promise.allSettled(rest);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      20,
      'item 3 holds what cannot be stored',
      40,
    ]);
    expect(sent).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('fails the whole batch at once for an error that is not one item’s', async () => {
    const sent: number[][] = [];
    const c = new Coalescer<number, number>(
      async (_key, items) => {
        sent.push(items);
        if (items.length > 1) throw new Error('database unreachable');
        return items;
      },
      { isolate: (error) => error.message !== 'database unreachable' },
    );
    const first = c.submit('k', 1);
    const rest = [2, 3].map((n) => c.submit('k', n));
    await first;
    for (const r of rest) await expect(r).rejects.toThrow('database unreachable');
    expect(sent).toEqual([[1], [2, 3]]);
  });
});
