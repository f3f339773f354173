import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { AppState } from './state.ts';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What a finished request is reported to (the process's metrics). */
export interface RequestObserver {
  requestFinished(method: string, route: string, status: number, seconds: number): void;
}

/**
 * Gives every request an id (the client's X-Request-Id when it is sane), echoes it on the
 * response and logs one JSON line per request with it, naming the route by its template
 * (`/api/v1/records/{id}`) beside the path as sent.
 */
export function requestContext(logger: Logger, observer?: RequestObserver): Middleware<AppState> {
  const logs = logger.isLevelEnabled('info');
  return async (ctx, next) => {
    const sent = ctx.get('X-Request-Id');
    const requestId = CLIENT_ID.test(sent) ? sent : randomUUID();
    const state = new RequestState(logger, requestId);
    ctx.state = state;
    ctx.set('X-Request-Id', requestId);
    if (!logs && !observer) return next();
    const started = performance.now();
    // As sent, read before any layer answers.
    const path = ctx.path;
    ctx.res.once('finish', () => {
      const route = routeOf(ctx, state);
      const status = ctx.res.statusCode;
      const elapsed = performance.now() - started;
      observer?.requestFinished(ctx.method, route, status, elapsed / 1000);
      if (!logs) return;
      state.log.info(
        {
          method: ctx.method,
          route,
          path,
          status,
          ms: Math.round(elapsed * 10) / 10,
          workspaceId: state.actor?.workspaceId,
        },
        'request',
      );
    });
    await next();
  };
}

/**
 * The template of the route that answered: set by the REST and tRPC layers and the web app,
 * or the pattern of a Koa route; `(unmatched)` when nothing did (a 404).
 */
function routeOf(ctx: object, state: AppState): string {
  if (state.route) return state.route;
  // @koa/router's documented `routerPath`: the pattern of the route that matched.
  const matched = (ctx as { routerPath?: unknown }).routerPath;
  return typeof matched === 'string' ? matched : '(unmatched)';
}

/** A request's state; its child logger is made on first use, as most requests log one line at most. */
class RequestState implements AppState {
  actor?: AppState['actor'];
  route?: string;
  #child: Logger | undefined;

  constructor(
    private readonly logger: Logger,
    readonly requestId: string,
  ) {}

  get log(): Logger {
    this.#child ??= this.logger.child({ requestId: this.requestId });
    return this.#child;
  }
}
