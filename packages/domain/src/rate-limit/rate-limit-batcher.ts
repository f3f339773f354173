import type { Database } from '@crm/db';
import { Coalescer } from '../shared/coalescer.ts';
import { consumeRateLimits, type RateLimitRequest, type RateLimitResult } from './consume-rate-limit.ts';

export interface RateLimitBatcherOptions {
  /** Statements counting at once (default 1). */
  maxInFlight?: number;
  /** Most requests one statement counts (default 2,000); the rest wait for the next. */
  maxBatch?: number;
  now?: () => number;
}

interface Call {
  subject: string;
  limit: number;
  windowMs: number | undefined;
}

/**
 * Counts requests against their sliding windows (`consumeRateLimits`) in batches
 * (docs/operations.md, "Rate limits in batches"), through a Coalescer under one key: a
 * request that finds no statement in flight is counted at once, alone; requests that arrive
 * while one is in flight wait for it and are then counted together, every subject and every
 * request of one subject in a single statement. Under load each process thus writes each busy
 * bucket row once per round trip instead of once per request, and adds no wait when idle.
 * The count stays exact across processes: every grant is decided under the bucket row's lock
 * in PostgreSQL.
 */
export class RateLimitBatcher {
  /** Statements sent and requests they counted (tests read them; metrics may). */
  readonly counts = { statements: 0, requests: 0 };
  private readonly calls: Coalescer<Call, RateLimitResult>;
  private readonly now: () => number;

  constructor(
    private readonly db: Database,
    options: RateLimitBatcherOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.calls = new Coalescer((_key, calls) => this.count(calls), {
      parallel: options.maxInFlight ?? 1,
      maxBatch: options.maxBatch ?? 2_000,
    });
  }

  /** Counts one request of `subject`; resolves with its result, allowed or not. */
  consume(subject: string, limit: number, windowMs?: number): Promise<RateLimitResult> {
    return this.calls.submit('', { subject, limit, windowMs });
  }

  /** One statement for a batch of calls: grouped by subject, each group granted in order. */
  private async count(calls: Call[]): Promise<RateLimitResult[]> {
    const groups = new Map<string, { request: RateLimitRequest; indexes: number[] }>();
    calls.forEach((call, index) => {
      const group = groups.get(call.subject);
      if (!group) {
        const request: RateLimitRequest = { subject: call.subject, limit: call.limit, count: 0 };
        if (call.windowMs !== undefined) request.windowMs = call.windowMs;
        groups.set(call.subject, { request, indexes: [index] });
      } else {
        // A limit lowered while requests waited: the lower one holds for all of them.
        group.request.limit = Math.min(group.request.limit, call.limit);
        group.indexes.push(index);
      }
    });
    for (const group of groups.values()) group.request.count = group.indexes.length;
    this.counts.statements++;
    this.counts.requests += calls.length;
    const grants = await consumeRateLimits(
      this.db,
      [...groups.values()].map((group) => group.request),
      this.now(),
    );
    const results: RateLimitResult[] = new Array(calls.length);
    [...groups.values()].forEach((group, i) => {
      group.indexes.forEach((index, j) => {
        results[index] = grants[i]!.resultOf(j);
      });
    });
    return results;
  }
}
