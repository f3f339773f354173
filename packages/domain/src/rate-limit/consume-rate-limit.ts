import { type Database, namedStatement, runNamed } from '@crm/db';
import { sql } from 'drizzle-orm';
import { missing } from '../shared/missing.ts';
import type { RateLimitRelease } from './rate-limit-leases.ts';

/** The rate limits' sliding window, unless a subject is counted in another (sign-in failures). */
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** The longest window a subject may be counted in (sign-in failures); buckets are kept twice as long. */
const LONGEST_WINDOW_MS = 15 * 60_000;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window's count falls enough for another request (RateLimit-Reset). */
  resetSeconds: number;
  /** Whole seconds to wait before retrying, at least 1; only meaningful when not allowed. */
  retryAfterSeconds: number;
}

/**
 * Counts requests of many subjects in one statement. Per subject: the previous bucket's count
 * weighted, then as many of its `n` requests as fit are added to the current bucket under the
 * row's lock; when none fits the row is left alone. `last_grant` tells each caller what its
 * write added, as the row may have moved since the statement's snapshot. Rows are locked in
 * subject order, so two batches never wait on each other in a circle.
 */
export const CONSUME_SQL = `
  with input as (
    select * from unnest($1::text[], $2::int[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::float8[])
      as i(subject, lim, n, previous_start, window_start, weight)
  ), state as (
    select i.subject, i.lim, i.n, i.window_start,
           coalesce(p.count, 0) as previous,
           coalesce(p.count, 0) * i.weight as weighted,
           c.count as stored
      from input i
      left join rate_limit_buckets p on p.subject = i.subject and p.window_start = i.previous_start
      left join rate_limit_buckets c on c.subject = i.subject and c.window_start = i.window_start
  ), counted as (
    insert into rate_limit_buckets as b (subject, window_start, count, last_grant)
    select s.subject, s.window_start, g.fits, g.fits
      from state s, lateral (select greatest(0, least(s.n, floor(s.lim - s.weighted)::int)) as fits) g
     order by s.subject
    on conflict (subject, window_start) do update
      set (count, last_grant) = (
        select b.count + g.fits, g.fits
          from state s, lateral (select least(s.n, floor(s.lim - s.weighted)::int - b.count) as fits) g
         where s.subject = excluded.subject)
      where exists (
        select 1 from state s
         where s.subject = excluded.subject and b.count + 1 + s.weighted <= s.lim)
    returning b.subject, b.count, b.last_grant
  )
  select s.subject, s.previous, s.stored, c.count, c.last_grant
    from state s left join counted c on c.subject = s.subject`;

/**
 * Counts one request against a sliding one-minute window (docs/api.md, "Keys and limits"), or
 * one of `windowMs` (sign-in failures: 15 minutes), kept in Postgres, so every server process
 * shares it. The window is approximated by two fixed buckets: the current one's count plus the
 * previous one's count weighted by how much of it still lies inside the window. One statement
 * both checks and counts, under the bucket row's lock, so concurrent requests cannot overshoot.
 * A refused request is not counted.
 */
export async function consumeRateLimit(
  db: Database,
  subject: string,
  limit: number,
  now: number = Date.now(),
  windowMs: number = RATE_LIMIT_WINDOW_MS,
): Promise<RateLimitResult> {
  return (await consumeRateLimitMany(db, subject, limit, 1, now, windowMs)).resultOf(0);
}

/**
 * Gives back one request counted in the bucket starting at `windowStart` (a request that
 * turned out not to count, such as a sign-in that succeeded). Never goes below zero.
 */
export async function releaseRateLimit(db: Database, subject: string, windowStart: number): Promise<void> {
  await releaseRateLimits(db, [{ subject, windowStart, count: 1 }]);
}

/** Takes counts off buckets, never below zero: `$1` subjects, `$2` bucket starts, `$3` counts. */
export const RELEASE_RATE_LIMITS_SQL = `
  update rate_limit_buckets b set count = greatest(b.count - r.n, 0)
    from unnest($1::text[], $2::timestamptz[], $3::int[]) as r(subject, window_start, n)
   where b.subject = r.subject and b.window_start = r.window_start`;

const RELEASE_RATE_LIMITS = namedStatement('release_rate_limits', RELEASE_RATE_LIMITS_SQL);

/**
 * Gives back requests counted but not made (the unused tokens of rate-limit leases,
 * `RateLimitLeases`), each from the bucket it was counted in, in one statement. One entry per
 * bucket: an UPDATE … FROM applies only one of several rows that match the same row.
 */
export async function releaseRateLimits(db: Database, releases: readonly RateLimitRelease[]): Promise<void> {
  if (releases.length === 0) return;
  await runNamed(db, RELEASE_RATE_LIMITS, [
    releases.map((r) => r.subject),
    releases.map((r) => new Date(r.windowStart)),
    releases.map((r) => r.count),
  ]);
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

/** Requests of one subject to count together. */
export interface RateLimitRequest {
  subject: string;
  limit: number;
  count: number;
  /** The sliding window (default one minute, at most LONGEST_WINDOW_MS). */
  windowMs?: number;
}

const CONSUME_RATE_LIMITS = namedStatement('consume_rate_limits', CONSUME_SQL);

type ConsumedRow = {
  subject: string;
  previous: number;
  stored: number | null;
  count: number | null;
  last_grant: number | null;
};

/**
 * Counts the requests of many subjects at once, in one statement: for each subject as many
 * as fit in its sliding window are granted (in order), the rest refused and not counted.
 * Subjects must be distinct. `RateLimitBatcher` gathers concurrent requests into such calls.
 */
export async function consumeRateLimits(
  db: Database,
  requests: readonly RateLimitRequest[],
  now: number = Date.now(),
): Promise<RateLimitGrant[]> {
  const windows = requests.map((request) => {
    const windowMs = request.windowMs ?? RATE_LIMIT_WINDOW_MS;
    if (windowMs > LONGEST_WINDOW_MS) {
      throw new RangeError(`A rate-limit window is at most ${LONGEST_WINDOW_MS} ms`);
    }
    const windowStart = now - (now % windowMs);
    return { windowMs, windowStart, elapsed: now - windowStart };
  });
  // A named statement: parsed and planned once per connection, it runs on every request.
  const consumed = await runNamed<ConsumedRow>(db, CONSUME_RATE_LIMITS, [
    requests.map((r) => r.subject),
    requests.map((r) => r.limit),
    requests.map((r) => r.count),
    windows.map((w) => new Date(w.windowStart - w.windowMs)),
    windows.map((w) => new Date(w.windowStart)),
    windows.map((w) => 1 - w.elapsed / w.windowMs),
  ]);
  const rows = new Map(consumed.map((row) => [row.subject, row]));
  return requests.map((request, i) => {
    const row = rows.get(request.subject);
    if (!row) throw new Error(`The rate-limit statement left out ${request.subject}`);
    return grantFrom(row, request.limit, windows[i] ?? missing('windows[i]'));
  });
}

function grantFrom(
  row: ConsumedRow,
  limit: number,
  { windowMs, windowStart, elapsed }: { windowMs: number; windowStart: number; elapsed: number },
): RateLimitGrant {
  const weight = 1 - elapsed / windowMs;
  const prevCount = row.previous;
  // Written: the bucket after this statement's write and what the write added. Not written
  // (nothing fitted): the bucket as the statement's snapshot saw it.
  const granted = row.count === null ? 0 : (row.last_grant ?? 0);
  const after = row.count ?? row.stored ?? 0;
  const before = after - granted;
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

/**
 * Counts `count` requests of one subject at once: as many as fit in the sliding window are
 * granted (in order), the rest refused and not counted; when none fits the bucket row is not
 * written.
 */
export async function consumeRateLimitMany(
  db: Database,
  subject: string,
  limit: number,
  count: number,
  now: number = Date.now(),
  windowMs: number = RATE_LIMIT_WINDOW_MS,
): Promise<RateLimitGrant> {
  const [grant] = await consumeRateLimits(db, [{ subject, limit, count, windowMs }], now);
  if (!grant) missing('grant, the first of what the call returned');
  return grant;
}

/** Drops buckets that can no longer weigh on any window (the longest one included). */
export async function pruneRateLimitBuckets(db: Database): Promise<number> {
  const keepSeconds = (2 * LONGEST_WINDOW_MS) / 1000;
  const result = await db.execute(
    sql`delete from rate_limit_buckets where window_start < now() - make_interval(secs => ${keepSeconds})`,
  );
  return result.rowCount ?? 0;
}
