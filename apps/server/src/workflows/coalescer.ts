/**
 * Group commit for the trigger endpoint's database work. Calls with the same key that arrive
 * while that key's statement is in flight wait for it and then go together in the next one:
 * an idle service adds no delay, a busy one sends one statement per batch instead of one per
 * call. A call never joins a statement already sent, so what it gets back was read or written
 * after it arrived.
 */
export class Coalescer<Item, Result> {
  private readonly waiting = new Map<string, { item: Item; settle: (result: Result | Error) => void }[]>();
  private readonly inFlight = new Map<string, number>();
  private readonly parallel: number;
  private readonly maxBatch: number;

  /**
   * @param flush does the work of one batch (all of one key): a result, or an Error for that
   *   item alone, per item in order. If it throws, every item of the batch fails with it.
   */
  constructor(
    private readonly flush: (key: string, items: Item[]) => Promise<(Result | Error)[]>,
    options: { parallel?: number; maxBatch?: number } = {},
  ) {
    this.parallel = options.parallel ?? 1;
    this.maxBatch = options.maxBatch ?? 200;
  }

  submit(key: string, item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(key) ?? [];
      list.push({ item, settle: (result) => (result instanceof Error ? reject(result) : resolve(result)) });
      this.waiting.set(key, list);
      this.drain(key);
    });
  }

  private drain(key: string): void {
    for (;;) {
      const running = this.inFlight.get(key) ?? 0;
      const list = this.waiting.get(key);
      if (running >= this.parallel || !list || list.length === 0) return;
      const batch = list.splice(0, this.maxBatch);
      if (list.length === 0) this.waiting.delete(key);
      this.inFlight.set(key, running + 1);
      this.flush(
        key,
        batch.map((entry) => entry.item),
      )
        .then(
          (results) => {
            batch.forEach((entry, i) => {
              entry.settle(results[i] ?? new Error('no result for this call'));
            });
          },
          (error: unknown) => {
            const failure = error instanceof Error ? error : new Error(String(error));
            for (const entry of batch) entry.settle(failure);
          },
        )
        .finally(() => {
          const left = (this.inFlight.get(key) ?? 1) - 1;
          if (left === 0) this.inFlight.delete(key);
          else this.inFlight.set(key, left);
          this.drain(key);
        });
    }
  }
}
