import { toErrorResponse } from '@crm/api';
import type { ParameterizedContext } from 'koa';
import type { AppState } from './state.ts';

/** Answers with the contract's error body (§2); logs what the client must not see. */
export function sendError(ctx: ParameterizedContext<AppState>, error: unknown): void {
  const response = toErrorResponse(error, ctx.state.requestId);
  if (response.status >= 500) {
    ctx.state.log.error({ err: error, code: response.body.error.code }, 'request failed');
  }
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  ctx.body = response.body;
}
