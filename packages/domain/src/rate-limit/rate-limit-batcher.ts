import type { Database } from '@crm/db';
import { consumeRateLimits, type RateLimitResult } from './consume-rate-limit.ts';

export interface RateLimitBatcherOptions {
  /** Statements counting at once (default 1). */
  maxInFlight?: number;
  /** Most subjects one statement counts (default 500); the rest wait for the next. */
  maxSubjects?: number;
  now?: () => number;
}

interface Waiting {
  subject: string;
  limit: number;
  windowMs: number | undefined;
  callers: { resolve(result: RateLimitResult): void; reject(error: unknown): void }[];
}

/**
 * Counts requests against their sliding windows (`consumeRateLimits`) in batches
 * (docs/operations.md, "Rate limits in batches"). A request that finds no statement in
 * flight is counted at once, alone; requests that arrive while one is in flight wait for it
 * and are then counted together, every subject and every request of one subject in a single
 * statement. Under load each process thus writes each busy bucket row once per round trip
 * instead of once per request, and adds no wait when idle. The count stays exact across
 * processes: every grant is decided under the bucket row's lock in PostgreSQL.
 */
export class RateLimitBatcher {
  private pending = new Map<string, Waiting>();
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly maxSubjects: number;
  private readonly now: () => number;
  /** Statements sent and requests they counted, for the benchmark and tests. */
  readonly counts = { statements: 0, requests: 0 };

  constructor(
    private readonly db: Database,
    options: RateLimitBatcherOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 1;
    this.maxSubjects = options.maxSubjects ?? 500;
    this.now = options.now ?? Date.now;
  }

  /** Counts one request of `subject`; resolves with its result, allowed or not. */
  consume(subject: string, limit: number, windowMs?: number): Promise<RateLimitResult> {
    return new Promise((resolve, reject) => {
      let waiting = this.pending.get(subject);
      if (!waiting) {
        waiting = { subject, limit, windowMs, callers: [] };
        this.pending.set(subject, waiting);
      } else if (limit < waiting.limit) {
        // A limit lowered while requests waited: the lower one holds for all of them.
        waiting.limit = limit;
      }
      waiting.callers.push({ resolve, reject });
      if (this.inFlight < this.maxInFlight) this.send();
    });
  }

  private send(): void {
    if (this.pending.size === 0) return;
    let batch: Waiting[];
    if (this.pending.size <= this.maxSubjects) {
      batch = [...this.pending.values()];
      this.pending = new Map();
    } else {
      batch = [];
      for (const [subject, waiting] of this.pending) {
        if (batch.length === this.maxSubjects) break;
        batch.push(waiting);
        this.pending.delete(subject);
      }
    }
    this.inFlight++;
    this.counts.statements++;
    const requests = batch.map((w) => ({
      subject: w.subject,
      limit: w.limit,
      count: w.callers.length,
      ...(w.windowMs === undefined ? {} : { windowMs: w.windowMs }),
    }));
    for (const request of requests) this.counts.requests += request.count;
    consumeRateLimits(this.db, requests, this.now())
      .then(
        (grants) => {
          batch.forEach((waiting, i) => {
            const grant = grants[i]!;
            waiting.callers.forEach((caller, j) => {
              caller.resolve(grant.resultOf(j));
            });
          });
        },
        (error: unknown) => {
          for (const waiting of batch) for (const caller of waiting.callers) caller.reject(error);
        },
      )
      .finally(() => {
        this.inFlight--;
        this.send();
      });
  }
}
