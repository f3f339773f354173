import { type ErrorResponse, toErrorResponse } from '@crm/api';
import type { ParameterizedContext } from 'koa';
import type { Logger } from '../logger.ts';
import type { AppState } from './state.ts';

/**
 * Answers with the REST error body (docs/api.md, "Requests and responses"), or what `shape`
 * makes of it (the trigger endpoint adds `ok: false`); logs what the client must not see.
 */
export function sendError(
  ctx: ParameterizedContext<AppState>,
  error: unknown,
  shape: (body: ErrorResponse['body']) => unknown = (body) => body,
): void {
  const response = toErrorResponse(error, ctx.state.requestId);
  logFailure(ctx.state.log, error, response.status, response.body.error.code);
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  ctx.body = shape(response.body);
}

/**
 * Logs the cause of a 5xx with the request's id (docs/operations.md, "Health and logs"): an
 * error for a fault of the service, a warning for a 503 (the database is away; every request
 * meets it until it is back, and the outage itself is what to look at).
 */
export function logFailure(log: Logger, error: unknown, status: number, code: string): void {
  if (status < 500) return;
  if (status === 503) log.warn({ err: error, code }, 'request refused while the database is unavailable');
  else log.error({ err: error, code }, 'request failed');
}
