import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { AppState } from './state.ts';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the client's X-Request-Id when it is sane), echoes it on the
 * response and logs one JSON line per request with it.
 */
export function requestContext(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const sent = ctx.get('X-Request-Id');
    const requestId = CLIENT_ID.test(sent) ? sent : randomUUID();
    const state = new RequestState(logger, requestId);
    ctx.state = state;
    ctx.set('X-Request-Id', requestId);
    if (!logger.isLevelEnabled('info')) return next();
    const started = performance.now();
    ctx.res.once('finish', () => {
      state.log.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          workspaceId: state.actor?.workspaceId,
        },
        'request',
      );
    });
    await next();
  };
}

/** A request's state; its child logger is made on first use, as most requests log one line at most. */
class RequestState implements AppState {
  actor?: AppState['actor'];
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
