import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, inArray } from 'drizzle-orm';
import { secondsUntilSlot } from '../rate-limit/consume-rate-limit.ts';

const WINDOW_MS = 60_000;

export interface RateLimitState {
  limit: number;
  /** Requests left in the sliding window, the current request already counted. */
  remaining: number;
  /** Seconds until the window frees requests, as in the RateLimit-Reset header. */
  resetSeconds: number;
}

/** The rate-limit subject the HTTP gate counts a workspace's requests under. */
export const workspaceRateLimitSubject = (workspaceId: string) => `ws:${workspaceId}`;

/**
 * Reads the sliding-window state `consumeRateLimit` keeps, without counting a request: the same
 * two buckets, weight and rounding, so right after the gate counted a request this answers what
 * its RateLimit-* headers said. GET /api/v1/me reports it this way because the gate's result
 * does not reach procedures (the API context has no place for it).
 */
export async function peekRateLimit(
  db: Executor,
  subject: string,
  limit: number,
  now: number = Date.now(),
): Promise<RateLimitState> {
  const windowStart = now - (now % WINDOW_MS);
  const elapsed = now - windowStart;
  const weight = 1 - elapsed / WINDOW_MS;
  const b = schema.rateLimitBuckets;
  const rows = await db
    .select({ windowStart: b.windowStart, count: b.count })
    .from(b)
    .where(
      and(
        eq(b.subject, subject),
        inArray(b.windowStart, [new Date(windowStart - WINDOW_MS), new Date(windowStart)]),
      ),
    );
  const countAt = (start: number) => rows.find((r) => r.windowStart.getTime() === start)?.count ?? 0;
  const prevCount = countAt(windowStart - WINDOW_MS);
  const curCount = countAt(windowStart);
  const used = prevCount * weight + curCount;
  const remaining = Math.max(0, Math.floor(limit - used));
  return {
    limit,
    remaining,
    resetSeconds:
      remaining > 0
        ? Math.max(1, Math.ceil((WINDOW_MS - elapsed) / 1000))
        : secondsUntilSlot(prevCount, curCount, limit, elapsed / 1000),
  };
}
