import type { Database } from '@crm/db';
import { Coalescer } from '../shared/coalescer.ts';
import { missing } from '../shared/missing.ts';
import {
  consumeRateLimits,
  RATE_LIMIT_WINDOW_MS,
  type RateLimitGrant,
  type RateLimitRequest,
  type RateLimitResult,
  releaseRateLimits,
} from './consume-rate-limit.ts';
import { type RateLimitLeaseOptions, RateLimitLeases, type RateLimitRelease } from './rate-limit-leases.ts';

export interface RateLimitBatcherOptions {
  /** Statements counting at once (default 1). */
  maxInFlight?: number;
  /** Most requests one statement counts (default 2,000); the rest wait for the next. */
  maxBatch?: number;
  /** Leases of tokens for busy subjects far from their limit; `false` counts every request. */
  leases?: RateLimitLeaseOptions | false;
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
 * request of one subject in a single statement. A busy subject far from its limit is also
 * given a lease (`RateLimitLeases`): tokens counted ahead in the same statement, which its
 * next requests take from memory. The count stays exact across processes: every grant,
 * leased or not, is decided under the bucket row's lock in PostgreSQL, and what a lease did
 * not use is given back when it ends.
 */
export class RateLimitBatcher {
  /** Requests counted, statements sent and requests answered from a lease (tests and metrics read them). */
  readonly counts = { statements: 0, requests: 0, leased: 0, released: 0 };
  private readonly calls: Coalescer<Call, RateLimitResult>;
  private readonly leases: RateLimitLeases<RateLimitGrant> | undefined;
  private readonly now: () => number;
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private releasing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    options: RateLimitBatcherOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.leases = options.leases === false ? undefined : new RateLimitLeases(options.leases);
    this.calls = new Coalescer((_key, calls) => this.count(calls), {
      parallel: options.maxInFlight ?? 1,
      maxBatch: options.maxBatch ?? 2_000,
    });
  }

  /** Counts one request of `subject`; resolves with its result, allowed or not. */
  consume(subject: string, limit: number, windowMs?: number): Promise<RateLimitResult> {
    this.counts.requests++;
    const token = this.leases?.take(subject, limit, this.now());
    if (token) {
      this.counts.leased++;
      return Promise.resolve(token.grant.resultOf(token.index));
    }
    return this.calls.submit('', { subject, limit, windowMs });
  }

  /**
   * Gives back what the leases have not used and stops their timer; later requests are
   * counted as before. A stopping process calls it before closing its pool.
   */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    await this.releasing;
    if (this.leases) await this.release(this.leases.endAll());
  }

  /**
   * One statement for a batch of calls: those a lease granted meanwhile take its tokens, the
   * rest are grouped by subject, each group granted in order, with a new lease's tokens after
   * them. No statement when the leases served every call.
   */
  private async count(calls: Call[]): Promise<RateLimitResult[]> {
    const now = this.now();
    const results: RateLimitResult[] = new Array(calls.length);
    const groups = new Map<string, { request: RateLimitRequest; indexes: number[] }>();
    calls.forEach((call, index) => {
      const token = this.leases?.take(call.subject, call.limit, now);
      if (token) {
        this.counts.leased++;
        results[index] = token.grant.resultOf(token.index);
        return;
      }
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
    if (groups.size === 0) return results;
    // Tokens of leases that ended (a changed limit among them) go back before counting again.
    const ended = this.leases?.expired(now) ?? [];
    if (ended.length > 0) await this.release(ended);
    const asked = new Map<string, number>();
    for (const [subject, group] of groups) {
      const waiting = group.indexes.length;
      const extra = this.leases?.extra(subject, group.request.limit, waiting, now) ?? 0;
      asked.set(subject, extra);
      group.request.count = waiting + extra;
    }
    this.counts.statements++;
    const requests = [...groups.values()].map((group) => group.request);
    const grants = await consumeRateLimits(this.db, requests, now);
    [...groups.entries()].forEach(([subject, group], i) => {
      const grant = grants[i] ?? missing('grants[i]');
      group.indexes.forEach((index, j) => {
        results[index] = grant.resultOf(j);
      });
      if (!this.leases) return;
      const windowMs = group.request.windowMs ?? RATE_LIMIT_WINDOW_MS;
      this.leases.keep(subject, {
        limit: group.request.limit,
        waiting: group.indexes.length,
        asked: asked.get(subject) ?? 0,
        granted: grant.granted,
        remaining: grant.granted > 0 ? grant.resultOf(grant.granted - 1).remaining : 0,
        windowStart: grant.windowStart,
        windowEnd: grant.windowStart + windowMs,
        grant,
        now,
      });
    });
    if (this.leases?.busy) this.sweep();
    return results;
  }

  /** While leases are held, gives back the unused tokens of those that ended, every quarter of their time. */
  private sweep(): void {
    if (this.sweeper || !this.leases) return;
    const leases = this.leases;
    this.sweeper = setInterval(
      () => {
        const released = leases.expired(this.now());
        if (released.length > 0) this.releasing = this.releasing.then(() => this.release(released));
        if (!leases.busy) {
          clearInterval(this.sweeper);
          this.sweeper = undefined;
        }
      },
      Math.max(10, leases.ttlMs / 4),
    );
    this.sweeper.unref();
  }

  /**
   * Tokens given back. A failed release leaves them counted: the window then lets fewer
   * requests through than its limit until it ends, never more.
   */
  private async release(released: RateLimitRelease[]): Promise<void> {
    if (released.length === 0) return;
    try {
      await releaseRateLimits(this.db, released);
      for (const release of released) this.counts.released += release.count;
    } catch {
      // Left counted, as above.
    }
  }
}
