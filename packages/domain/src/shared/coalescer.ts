/**
 * Group commit for database work done per call (the trigger endpoint's statements, the rate
 * limits' counting statement). Calls with the same key that arrive while that key's statement
 * is in flight wait for it and then go together in the next one: an idle service adds no
 * delay, a busy one sends one statement per batch instead of one per call. A call never joins
 * a statement already sent, so what it gets back was read or written after it arrived.
 */
export class Coalescer<Item, Result> {
  private readonly waiting = new Map<string, { item: Item; settle: (result: Result | Error) => void }[]>();
  private readonly inFlight = new Map<string, number>();
  private readonly parallel: number;
  private readonly maxBatch: number;
  private readonly isolate: (error: Error) => boolean;

  /**
   * @param flush does the work of one batch (all of one key): a result, or an Error for that
   *   item alone, per item in order. If it throws, every item of the batch fails with it,
   *   unless `isolate` says the error came from one item's data.
   * @param options.isolate tells a failure caused by what one item held (e.g. PostgreSQL
   *   refusing a value): the batch is then tried again item by item, so only the items at
   *   fault fail and the others (other tenants' calls among them) go through.
   */
  constructor(
    private readonly flush: (key: string, items: Item[]) => Promise<(Result | Error)[]>,
    options: { parallel?: number; maxBatch?: number; isolate?: (error: Error) => boolean } = {},
  ) {
    this.parallel = options.parallel ?? 1;
    this.maxBatch = options.maxBatch ?? 200;
    this.isolate = options.isolate ?? (() => false);
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
      this.flushIsolated(
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

  /** `flush`, and on an error `isolate` accepts, each item alone: one result per item. */
  private async flushIsolated(key: string, items: Item[]): Promise<(Result | Error)[]> {
    try {
      return await this.flush(key, items);
    } catch (error) {
      if (items.length < 2 || !(error instanceof Error) || !this.isolate(error)) throw error;
      const results: (Result | Error)[] = [];
      for (const item of items) {
        try {
          const [result] = await this.flush(key, [item]);
          results.push(result ?? new Error('no result for this call'));
        } catch (failure) {
          results.push(failure instanceof Error ? failure : new Error(String(failure)));
        }
      }
      return results;
    }
  }
}
