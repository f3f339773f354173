import { type ErrorResponse, toErrorResponse } from '@crm/api';
import type { ParameterizedContext } from 'koa';
import type { AppState } from './state.ts';

/**
 * Answers with the contract's error body (§2), or what `shape` makes of it (the trigger
 * endpoint adds `ok: false`); logs what the client must not see.
 */
export function sendError(
  ctx: ParameterizedContext<AppState>,
  error: unknown,
  shape: (body: ErrorResponse['body']) => unknown = (body) => body,
): void {
  const response = toErrorResponse(error, ctx.state.requestId);
  if (response.status >= 500) {
    ctx.state.log.error({ err: error, code: response.body.error.code }, 'request failed');
  }
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  ctx.body = shape(response.body);
}
