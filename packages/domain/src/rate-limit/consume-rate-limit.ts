import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';

const WINDOW_MS = 60_000;
/** The longest window a subject may be counted in (sign-in failures); buckets are kept twice as long. */
export const LONGEST_WINDOW_MS = 15 * 60_000;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window's count falls enough for another request (RateLimit-Reset). */
  resetSeconds: number;
  /** Whole seconds to wait before retrying, at least 1; only meaningful when not allowed. */
  retryAfterSeconds: number;
}

const CONSUME_SQL = `
  with prev as (
    select coalesce((select count from rate_limit_buckets where subject = $1 and window_start = $2), 0) * $3::float8 as weighted
  ), bucket as (
    insert into rate_limit_buckets as b (subject, window_start, count)
    select $1, $4, greatest(0, least($6::int, floor($5 - prev.weighted)::int)) from prev
    on conflict (subject, window_start) do update
      set count = b.count + least($6::int, floor($5 - (select weighted from prev) - b.count)::int)
      where b.count + 1 + (select weighted from prev) <= $5
    returning b.count
  )
  select (select count from bucket) as count,
         (select count from rate_limit_buckets where subject = $1 and window_start = $2) as previous,
         (select count from rate_limit_buckets where subject = $1 and window_start = $4) as stored`;

/**
 * Counts one request against a sliding one-minute window (contract §5), or one of `windowMs`
 * (sign-in failures: 15 minutes), kept in Postgres, so every server process shares it. The
 * window is approximated by two fixed buckets: the current one's count plus the previous
 * one's count weighted by how much of it still lies inside the window. One statement both checks and counts, under the bucket row's lock,
 * so concurrent requests cannot overshoot. A refused request is not counted.
 */
export async function consumeRateLimit(
  db: Database,
  subject: string,
  limit: number,
  now: number = Date.now(),
  windowMs: number = WINDOW_MS,
): Promise<RateLimitResult> {
  return (await consumeRateLimitMany(db, subject, limit, 1, now, windowMs)).resultOf(0);
}

/**
 * Gives back one request counted in the bucket starting at `windowStart` (a request that
 * turned out not to count, such as a sign-in that succeeded). Never goes below zero.
 */
export async function releaseRateLimit(db: Database, subject: string, windowStart: number): Promise<void> {
  await db.execute(
    sql`update rate_limit_buckets set count = count - 1
        where subject = ${subject} and window_start = ${new Date(windowStart)} and count > 0`,
  );
}

/**
 * Smallest whole number of seconds (at least 1) after which one more request fits:
 * either later in this bucket, as the previous bucket's weight shrinks, or in the next one,
 * where this bucket becomes the weighted previous.
 */
export function secondsUntilSlot(
  prev: number,
  cur: number,
  limit: number,
  elapsedSeconds: number,
  windowSeconds = 60,
): number {
  const w = windowSeconds;
  const left = w - elapsedSeconds;
  let wait: number;
  if (cur + 1 <= limit && prev > 0) {
    // prev * (1 - (e + t) / w) + cur + 1 <= limit
    const t = w * (1 - (limit - cur - 1) / prev) - elapsedSeconds;
    wait = t <= left ? Math.max(0, t) : left;
  } else if (cur + 1 <= limit) {
    wait = 0;
  } else {
    // cur * (1 - t' / w) + 1 <= limit, t' seconds into the next bucket
    const into = cur > 0 ? Math.max(0, w * (1 - (limit - 1) / cur)) : 0;
    wait = left + into;
  }
  return Math.max(1, Math.ceil(wait));
}

/** What `consumeRateLimitMany` gave: how many of the requests fit, and each one's headers. */
export interface RateLimitGrant {
  granted: number;
  /** Requests the window held before these, the previous bucket weighted (not rounded). */
  usedBefore: number;
  /** Start (ms) of the bucket the granted requests were counted in; `releaseRateLimit` takes it. */
  windowStart: number;
  /** The result of the i-th request (those past `granted` are refused). */
  resultOf(index: number): RateLimitResult;
}

/**
 * Counts `count` requests of one subject at once, in one statement: as many as fit in the
 * sliding window are granted (in order), the rest refused and not counted; when none fits
 * the bucket row is not written. Callers that see many concurrent requests for one subject
 * (a busy trigger URL) update the bucket row once per batch instead of once per request.
 */
export async function consumeRateLimitMany(
  db: Database,
  subject: string,
  limit: number,
  count: number,
  now: number = Date.now(),
  windowMs: number = WINDOW_MS,
): Promise<RateLimitGrant> {
  if (windowMs > LONGEST_WINDOW_MS) {
    throw new RangeError(`A rate-limit window is at most ${LONGEST_WINDOW_MS} ms`);
  }
  const windowStart = now - (now % windowMs);
  const elapsed = now - windowStart;
  const weight = 1 - elapsed / windowMs;
  // A named statement: parsed and planned once per connection, it runs on every request.
  const result = await db.$client.query({
    name: 'consume_rate_limit',
    text: CONSUME_SQL,
    values: [subject, new Date(windowStart - windowMs), weight, new Date(windowStart), limit, count],
  });
  const row = result.rows[0] as unknown as {
    count: number | null;
    previous: number | null;
    stored: number | null;
  };
  const prevCount = row.previous ?? 0;
  // `stored` is the bucket before this statement (its CTE snapshot predates the write);
  // `count` the bucket after it, or null when nothing fitted and the row was left alone.
  const before = row.stored ?? 0;
  const granted = row.count === null ? 0 : Math.max(0, row.count - before);
  const after = before + granted;
  const wait = secondsUntilSlot(prevCount, after, limit, elapsed / 1000, windowMs / 1000);
  const resetSeconds = Math.max(1, Math.ceil((windowMs - elapsed) / 1000));
  return {
    granted,
    usedBefore: prevCount * weight + before,
    windowStart,
    resultOf(index) {
      const allowed = index < granted;
      const used = prevCount * weight + (allowed ? before + index + 1 : after);
      const remaining = Math.max(0, Math.floor(limit - used));
      return {
        allowed,
        limit,
        remaining,
        resetSeconds: remaining > 0 ? resetSeconds : wait,
        retryAfterSeconds: wait,
      };
    },
  };
}

/** Drops buckets that can no longer weigh on any window (the longest one included). */
export async function pruneRateLimitBuckets(db: Database): Promise<number> {
  const keepSeconds = (2 * LONGEST_WINDOW_MS) / 1000;
  const result = await db.execute(
    sql`delete from rate_limit_buckets where window_start < now() - make_interval(secs => ${keepSeconds})`,
  );
  return result.rowCount ?? 0;
}
