/**
 * Requests a process may let through without asking PostgreSQL again: the tokens of a
 * "lease" (docs/operations.md, "Rate limits in batches"). A counting statement may ask for
 * more requests than are waiting; what it grants beyond them is counted in the shared bucket
 * at once, so the limit can never be passed, and later requests of the subject take those
 * tokens from memory. A lease ends after `ttlMs` or at the end of the bucket it was counted
 * in, whichever comes first; its unused tokens are then given back to the bucket.
 *
 * Leases are only taken for a busy subject far from its limit: while at least half the
 * limit is left, at most `maxShare` of the limit at a time, growing while they run dry and
 * shrinking when they end unused. Near the limit every request is counted in PostgreSQL, as
 * without leases. Pure bookkeeping, no I/O: `RateLimitBatcher` and the benchmark's bare
 * server share it.
 */

export interface RateLimitLeaseOptions {
  /** Longest a lease lasts before its unused tokens are given back (default 1,000 ms). */
  ttlMs?: number;
  /** Largest lease as a share of the limit (default 1/100). */
  maxShare?: number;
}

/** Unused tokens of an ended lease, to take off the bucket they were counted in. */
export interface RateLimitRelease {
  subject: string;
  windowStart: number;
  count: number;
}

interface Lease<G> {
  state: SubjectState;
  limit: number;
  windowStart: number;
  expiresAt: number;
  grant: G;
  /** Index in `grant` of the next token, and one past the last. */
  next: number;
  end: number;
}

interface SubjectState {
  limit: number;
  /** When a request of the subject was last seen: counted in PostgreSQL or given a token. */
  activeAt: number;
  /** The window's requests left after that count, as the statement saw the bucket. */
  remaining: number;
  /** Tokens the next lease asks for. */
  size: number;
}

export class RateLimitLeases<G> {
  private readonly leases = new Map<string, Lease<G>>();
  private readonly subjects = new Map<string, SubjectState>();
  private pending: RateLimitRelease[] = [];
  readonly ttlMs: number;
  private readonly maxShare: number;

  constructor(options: RateLimitLeaseOptions = {}) {
    this.ttlMs = options.ttlMs ?? 1_000;
    this.maxShare = options.maxShare ?? 0.01;
  }

  /** A token of the subject's lease (the grant and the token's index in it), or undefined. */
  take(subject: string, limit: number, now: number): { grant: G; index: number } | undefined {
    const lease = this.leases.get(subject);
    if (!lease) return undefined;
    if (lease.limit !== limit || now >= lease.expiresAt) {
      // A changed limit (or an ended lease): its tokens go back before the subject is counted again.
      this.end(subject);
      return undefined;
    }
    const index = lease.next++;
    lease.state.activeAt = now;
    if (lease.next >= lease.end) this.leases.delete(subject);
    return { grant: lease.grant, index };
  }

  /** How many tokens a statement counting `waiting` requests of the subject asks for beyond them. */
  extra(subject: string, limit: number, waiting: number, now: number): number {
    const state = this.subjects.get(subject);
    if (!state || state.limit !== limit || now - state.activeAt > this.ttlMs) return 0;
    const largest = Math.floor(limit * this.maxShare);
    if (largest < 2) return 0;
    // Only from the upper half of the limit: near it, each request is counted on its own.
    const spare = Math.floor(state.remaining - limit / 2) - waiting;
    return Math.max(0, Math.min(state.size, largest, spare));
  }

  /**
   * Notes what a statement granted the subject: `granted` of the `waiting` requests and the
   * `asked` extra tokens, in order; the tokens past the waiting requests become its lease.
   * `remaining` is what the window had left after the grant; `windowEnd` ends the lease.
   */
  keep(
    subject: string,
    fields: {
      limit: number;
      waiting: number;
      asked: number;
      granted: number;
      remaining: number;
      windowStart: number;
      windowEnd: number;
      grant: G;
      now: number;
    },
  ): void {
    const { limit, waiting, asked, granted, remaining, windowStart, windowEnd, grant, now } = fields;
    const previous = this.subjects.get(subject);
    const busy = previous !== undefined && now - previous.activeAt <= this.ttlMs;
    // A busy subject's next lease doubles (at least the requests that had to wait); one
    // counted after a quiet spell starts again without.
    const size = busy ? Math.max(waiting, 2 * (previous.size || asked)) : 0;
    const state: SubjectState = { limit, activeAt: now, remaining, size };
    this.subjects.set(subject, state);
    this.end(subject);
    if (granted > waiting) {
      this.leases.set(subject, {
        state,
        limit,
        windowStart,
        expiresAt: Math.min(now + this.ttlMs, windowEnd),
        grant,
        next: waiting,
        end: granted,
      });
    }
  }

  /**
   * Ends the leases whose time is up by `now`, forgets idle subjects, and returns the unused
   * tokens of every lease ended since the last call: what to give back.
   */
  expired(now: number): RateLimitRelease[] {
    for (const [subject, lease] of this.leases) {
      if (now >= lease.expiresAt) this.end(subject);
    }
    for (const [subject, state] of this.subjects) {
      if (now - state.activeAt > this.ttlMs && !this.leases.has(subject)) this.subjects.delete(subject);
    }
    return this.takePending();
  }

  /** Ends every lease (a process stopping): all unused tokens, to give back. */
  endAll(): RateLimitRelease[] {
    for (const subject of [...this.leases.keys()]) this.end(subject);
    return this.takePending();
  }

  /** The unused tokens of the leases ended since this was last called. */
  private takePending(): RateLimitRelease[] {
    const released = this.pending;
    this.pending = [];
    return released;
  }

  /** Leases held now (tests and metrics read it). */
  get held(): number {
    return this.leases.size;
  }

  /** Whether a lease is held or ended ones have tokens to give back: someone must call `expired`. */
  get busy(): boolean {
    return this.leases.size > 0 || this.pending.length > 0;
  }

  /** Ends the subject's lease, if any: its unused tokens go back, and the next lease is smaller. */
  private end(subject: string): void {
    const lease = this.leases.get(subject);
    if (!lease) return;
    this.leases.delete(subject);
    const unused = lease.end - lease.next;
    if (unused <= 0) return;
    // One entry per bucket, as a release statement takes them.
    const same = this.pending.find((r) => r.subject === subject && r.windowStart === lease.windowStart);
    if (same) same.count += unused;
    else this.pending.push({ subject, windowStart: lease.windowStart, count: unused });
    const state = this.subjects.get(subject);
    if (state) state.size = Math.floor(state.size / 2);
  }
}
