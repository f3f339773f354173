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
    ctx.state.requestId = requestId;
    // The child logger is made on first use: most requests log one line at most.
    let child: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => {
        child ??= logger.child({ requestId });
        return child;
      },
      configurable: true,
    });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    if (!logger.isLevelEnabled('info')) return next();
    ctx.res.once('finish', () => {
      ctx.state.log.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          workspaceId: ctx.state.actor?.workspaceId,
        },
        'request',
      );
    });
    await next();
  };
}
