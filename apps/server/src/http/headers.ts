import type { IncomingMessage } from 'node:http';

/**
 * A request header by its lower-case name, '' when it was not sent: what Koa's `ctx.get`
 * answers, without lower-casing the name on every call, for the headers every API request
 * reads (docs/architecture.md, "Cost per request").
 */
export function requestHeader(req: IncomingMessage, name: Lowercase<string>): string {
  const value = req.headers[name];
  if (typeof value === 'string') return value;
  return value === undefined ? '' : value.join(', ');
}
