/** How a retrying fetch behaves; every field has a default. */
export interface RetryOptions {
  /** Tries in all for one call, the first included (default 4: the first and up to three retries). */
  maxAttempts?: number;
  /**
   * The longest wait before a retry, in milliseconds (default 60,000): a `Retry-After` asking
   * for more is waited this long, and so is a backoff that would grow past it.
   */
  maxDelayMs?: number;
  /** The first wait when the answer names none (network errors, a 503 without `Retry-After`); doubled each time. Default 500. */
  baseDelayMs?: number;
  /** Statuses that are retried (default 429 and 503; the service does nothing on either). */
  retryOn?: readonly number[];
  /** How to wait; tests pass their own. Default: a timer, cut short by the request's abort signal. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Makes the `Idempotency-Key` of a call; default a random UUID. */
  idempotencyKey?: () => string;
}

/** The fetch signature the client and `withRetry` take and give. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Methods that get an `Idempotency-Key`, so that retrying them never writes twice. */
const KEYED_METHODS = new Set(['POST', 'PATCH']);

/**
 * Wraps `fetch` so that one call is tried again, up to `maxAttempts` times in all:
 *
 * - on 429 and 503, after the answer's `Retry-After` (seconds or an HTTP date), at most
 *   `maxDelayMs`; without one, after a doubling backoff;
 * - on a network error (the request may or may not have reached the service), after the backoff;
 * - on a 409 that follows a network error: the service is still working on the first try of
 *   the same key, so the retry waits for its answer.
 *
 * A POST or PATCH gets one `Idempotency-Key` (unless it already has one), made once for the
 * call and sent with each of its tries, so a write the service did but whose answer was lost
 * is answered again from the service's record instead of being done twice. When the tries
 * run out the last answer is returned (or the last network error thrown); an aborted request
 * is never retried.
 */
export function withRetry(fetchImpl: FetchLike = globalThis.fetch, options: RetryOptions = {}): FetchLike {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const retryOn = new Set(options.retryOn ?? [429, 503]);
  const sleep = options.sleep ?? defaultSleep;
  const newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());

  return async (input, init) => {
    const request = new Request(input, init);
    if (KEYED_METHODS.has(request.method) && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', newKey());
    }
    const backoff = (attempt: number) => Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    let lostAnswer = false;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      let response: Response;
      try {
        // Each try sends a copy: a body can be read only once.
        response = await fetchImpl(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        lostAnswer = true;
        await sleep(backoff(attempt), request.signal);
        continue;
      }
      const retryable =
        retryOn.has(response.status) ||
        (response.status === 409 && lostAnswer && request.headers.has('Idempotency-Key'));
      if (!retryable || last) return response;
      const asked = retryAfterMs(response.headers.get('Retry-After'));
      await response.body?.cancel();
      await sleep(Math.min(maxDelayMs, asked ?? backoff(attempt)), request.signal);
    }
  };
}

/** `Retry-After` in milliseconds: whole seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
