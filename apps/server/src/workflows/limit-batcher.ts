import type { Database } from '@crm/db';
import { consumeRateLimitMany, type RateLimitResult } from '@crm/domain';

interface Waiting {
  limit: number;
  waiters: ((result: RateLimitResult | Error) => void)[];
}

/**
 * Counts trigger calls against their workflow's limit in batches: while one count for a
 * workflow is in flight, its next calls wait and are then counted together by one statement.
 * A hot trigger URL thus updates its counter row once per batch instead of once per call
 * (every call of a workflow updates the same row, so one-by-one they queue on its lock).
 */
export class LimitBatcher {
  private readonly waiting = new Map<string, Waiting>();
  private readonly inFlight = new Set<string>();

  constructor(private readonly db: Database) {}

  consume(subject: string, limit: number): Promise<RateLimitResult> {
    return new Promise((resolve, reject) => {
      const entry = this.waiting.get(subject) ?? { limit, waiters: [] };
      entry.limit = limit;
      entry.waiters.push((result) => (result instanceof Error ? reject(result) : resolve(result)));
      this.waiting.set(subject, entry);
      this.flush(subject);
    });
  }

  private flush(subject: string): void {
    if (this.inFlight.has(subject)) return;
    const entry = this.waiting.get(subject);
    if (!entry) return;
    this.waiting.delete(subject);
    this.inFlight.add(subject);
    consumeRateLimitMany(this.db, subject, entry.limit, entry.waiters.length)
      .then(
        (grant) => {
          entry.waiters.forEach((settle, i) => {
            settle(grant.resultOf(i));
          });
        },
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          for (const settle of entry.waiters) settle(failure);
        },
      )
      .finally(() => {
        this.inFlight.delete(subject);
        this.flush(subject);
      });
  }
}
