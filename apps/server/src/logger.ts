import { REDACTED, safeError, safeErrorMessage, safeLogValue } from '@crm/domain';
import pino from 'pino';

export type Logger = pino.Logger;

/** Top-level keys of a log line whose values are never written (see `safeLogValue` for nested ones). */
const SECRET_KEYS = new Set(['secret', 'previousSecret', 'headers', 'params', 'password', 'authorization']);

/**
 * Every logged object passes here before it is written: errors anywhere in it (the `err` of
 * a failed request, graphile-worker's `meta.error`) lose the values of failed statements, and
 * secret-bearing keys are redacted. Primitive fields, the common case, are passed as they
 * are without copying.
 */
function safeLine(object: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    let safe = value;
    if (key === 'err') continue; // serializers.err
    if (SECRET_KEYS.has(key)) safe = REDACTED;
    else if (value !== null && typeof value === 'object') safe = safeLogValue(value);
    if (safe !== value) {
      out ??= { ...object };
      out[key] = safe;
    }
  }
  return out ?? object;
}

/**
 * JSON lines on stdout (or `destination`); each request's lines carry its `requestId`.
 * Secrets never reach a line: an error is logged with its message, codes and SQL text but
 * without the parameters of a failed statement (which may be a webhook secret or a header
 * token), for its whole cause chain, and keys such as `secret` or `headers` are redacted.
 */
export function createLogger(level: string = 'info', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'crm' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: safeLine },
    // `logger.error(error)` makes the error's message the line's `msg`.
    serializers: {
      err: safeError,
      msg: (msg: unknown) => (typeof msg === 'string' ? safeErrorMessage(msg) : msg),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
