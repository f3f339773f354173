/**
 * When attempts happen (docs/webhooks.md, "Delivery, retries, disabling", after Standard
 * Webhooks): immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after
 * the previous one — 10 attempts over about 3 days — each delay ±20 % jitter. A receiver's
 * Retry-After on 429/503 is honoured up to an hour. Tests shrink everything with `scale`.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
const MAX_RETRY_AFTER_SECONDS = 3600;

export interface RetryPolicy {
  /** Multiplies every delay (1 in production; tests use e.g. 0.001). */
  scale: number;
  /** ±fraction of jitter (0.2). */
  jitter: number;
  random?: () => number;
}

/**
 * Milliseconds to wait after failed attempt number `attempt` (1-based), or null when it was
 * the last. `retryAfterSeconds` (from a 429/503) replaces the schedule's delay when longer.
 */
export function nextRetryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  retryAfterSeconds?: number | null,
): number | null {
  const base = RETRY_DELAYS_SECONDS[attempt - 1];
  if (base === undefined) return null;
  const random = policy.random ?? Math.random;
  const jittered = base * (1 + policy.jitter * (2 * random() - 1));
  const honoured = retryAfterSeconds
    ? Math.max(jittered, Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS))
    : jittered;
  return Math.round(honoured * 1000 * policy.scale);
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
