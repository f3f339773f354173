import type { Middleware } from 'koa';

export interface RequestTracker {
  middleware: Middleware;
  /** Resolves once no request is being handled, or after `timeoutMs`. */
  idle(timeoutMs: number): Promise<void>;
}

/**
 * Counts requests whose handlers are still running, even after their client went away, so
 * a shutdown closes the database only when they are done.
 */
export function trackRequests(): RequestTracker {
  let active = 0;
  let waiters: (() => void)[] = [];
  const settle = () => {
    if (active > 0) return;
    for (const wake of waiters) wake();
    waiters = [];
  };
  return {
    middleware: async (_ctx, next) => {
      active++;
      try {
        await next();
      } finally {
        active--;
        settle();
      }
    },
    idle(timeoutMs) {
      if (active === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
