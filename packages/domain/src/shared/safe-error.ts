/**
 * Errors as they may be written to a log or a terminal. A failed statement's error carries
 * the values it was sent (drizzle's DrizzleQueryError has `params`, and its message and stack
 * list them; PostgreSQL's `detail` quotes a failing row), and those values can be signing
 * secrets or header tokens. What is kept: the type, the message without any parameter list,
 * the stack frames, PostgreSQL's and Node's error codes and the names of the table, column or
 * constraint concerned, the SQL text (which has placeholders, not values), and the same of
 * every cause. Nothing else of an error object is copied.
 */

/** Properties copied when present and of a plain type: codes and names, never values. */
const SAFE_FIELDS = [
  'code',
  'errno',
  'syscall',
  'severity',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
  'status',
  'statusCode',
] as const;

const MAX_DEPTH = 5;

/** A message without the parameter list drizzle appends to a failed query's message. */
export function safeErrorMessage(message: string): string {
  return message.replace(/\n\s*params:[\s\S]*$/, '');
}

interface SafeError {
  type: string;
  message: string;
  stack?: string;
  /** The SQL text of a failed statement, placeholders only. */
  query?: string;
  cause?: SafeError | unknown;
  errors?: unknown[];
  [field: string]: unknown;
}

function isErrorLike(value: unknown): value is Error {
  return (
    value instanceof Error ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { message?: unknown }).message === 'string' &&
      typeof (value as { stack?: unknown }).stack === 'string')
  );
}

/** The frames of a stack, under a first line rebuilt from the safe message. */
function safeStack(type: string, message: string, stack: string | undefined): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return [`${type}: ${message}`, ...frames].join('\n');
}

/**
 * An error reduced to what may be logged (see above). Anything that is not an error is
 * returned as `safeLogValue` makes it.
 */
export function safeError(error: unknown, depth = 0): unknown {
  if (!isErrorLike(error)) return safeLogValue(error, depth);
  const type =
    error.constructor?.name && error.constructor.name !== 'Object' ? error.constructor.name : error.name;
  const message = safeErrorMessage(error.message);
  const out: SafeError = { type, message };
  const stack = safeStack(type, message, error.stack);
  if (stack) out.stack = stack;
  const fields = error as unknown as Record<string, unknown>;
  for (const field of SAFE_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  if (typeof fields.query === 'string') out.query = fields.query;
  if (depth < MAX_DEPTH) {
    if (fields.cause !== undefined) out.cause = safeError(fields.cause, depth + 1);
    if (Array.isArray(fields.errors))
      out.errors = fields.errors.slice(0, 10).map((e) => safeError(e, depth + 1));
  }
  return out;
}

/** Keys whose values are never written to a log, wherever they appear in a logged object. */
const SECRET_KEYS = new Set([
  'secret',
  'previoussecret',
  'previous_secret',
  'headers',
  'params',
  'parameters',
  'values',
  'password',
  'apikey',
  'authorization',
  'cookie',
  'token',
]);

export const REDACTED = '[redacted]';

/**
 * A value to be logged with every error inside it made safe (`safeError`) and the values of
 * secret-bearing keys (`secret`, `headers`, `params`, …) replaced with `[redacted]`, at any
 * depth up to a limit.
 */
export function safeLogValue(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isErrorLike(value)) return safeError(value, depth);
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[array]' : '[object]';
  if (Array.isArray(value)) return value.map((item) => safeLogValue(item, depth + 1));
  if (value instanceof Date || Buffer.isBuffer(value)) return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : safeLogValue(item, depth + 1);
  }
  return out;
}
