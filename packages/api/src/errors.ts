import {
  CodedError,
  DomainError,
  type DomainErrorOptions,
  type ErrorCode,
  type ErrorDetail,
  issueDetails,
  sqlStateOf,
} from '@crm/domain';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { z } from 'zod';

/**
 * The codes only a transport raises, which the domain never does: a method the path does not
 * take (405), and a conditional write whose If-Match the resource no longer matches (412).
 */
export const transportErrorCodes = ['METHOD_NOT_ALLOWED', 'PRECONDITION_FAILED'] as const;

export type TransportErrorCode = (typeof transportErrorCodes)[number];

/** A refusal of the HTTP layer, with one of its own codes; rendered as a DomainError is. */
export class RequestError extends CodedError<TransportErrorCode> {
  override readonly name = 'RequestError';
  /** For PRECONDITION_FAILED: the version (entity tag) the resource is at now. */
  readonly currentVersion: string | undefined;

  constructor(
    code: TransportErrorCode,
    message: string,
    options: DomainErrorOptions & { currentVersion?: string } = {},
  ) {
    super(code, message, options);
    this.currentVersion = options.currentVersion;
  }
}

/** Every error a caller can be answered with: the domain's and the transport's. */
export type ApiError = DomainError | RequestError;

const isApiError = (error: unknown): error is ApiError =>
  error instanceof DomainError || error instanceof RequestError;

export type ApiErrorCode = ErrorCode | TransportErrorCode;

/**
 * What each error code, the domain's and the transport's, is over HTTP and tRPC (docs/api.md,
 * "Error codes"): its status, which no other code shares, and its tRPC code. The one place they
 * are written; `errors.test.ts` walks both registries against it.
 */
export const errorCodeMappings = {
  VALIDATION_FAILED: { status: 400, trpc: 'BAD_REQUEST' },
  UNAUTHORIZED: { status: 401, trpc: 'UNAUTHORIZED' },
  FORBIDDEN: { status: 403, trpc: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, trpc: 'NOT_FOUND' },
  METHOD_NOT_ALLOWED: { status: 405, trpc: 'METHOD_NOT_SUPPORTED' },
  CONFLICT: { status: 409, trpc: 'CONFLICT' },
  PRECONDITION_FAILED: { status: 412, trpc: 'PRECONDITION_FAILED' },
  GONE: { status: 410, trpc: 'NOT_FOUND' },
  PAYLOAD_TOO_LARGE: { status: 413, trpc: 'PAYLOAD_TOO_LARGE' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, trpc: 'UNSUPPORTED_MEDIA_TYPE' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, trpc: 'UNPROCESSABLE_CONTENT' },
  RATE_LIMITED: { status: 429, trpc: 'TOO_MANY_REQUESTS' },
  INTERNAL: { status: 500, trpc: 'INTERNAL_SERVER_ERROR' },
  UNAVAILABLE: { status: 503, trpc: 'SERVICE_UNAVAILABLE' },
} as const satisfies Record<ApiErrorCode, { status: number; trpc: TRPC_ERROR_CODE_KEY }>;

/** Every code a caller can meet, in the order of the table above (the OpenAPI document's enum). */
export const apiErrorCodes = Object.keys(errorCodeMappings) as ApiErrorCode[];

/** The HTTP status of an error. */
export const statusOf = (error: ApiError): number => errorCodeMappings[error.code].status;

/**
 * The headers an error's data implies, on both surfaces: `Retry-After` when the same
 * request may succeed later, `WWW-Authenticate` with the credential a 401 asks for, `ETag`
 * with the version a 412's resource is at now.
 */
export function errorHeaders(error: ApiError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  if (error.challenge) {
    const { scheme, resourceMetadata } = error.challenge;
    headers['WWW-Authenticate'] =
      resourceMetadata === undefined ? scheme : `${scheme} resource_metadata="${resourceMetadata}"`;
  }
  if (error instanceof RequestError && error.currentVersion !== undefined)
    headers.ETag = error.currentVersion;
  return headers;
}

/**
 * The error bridge: every failure, whatever threw it, becomes an ApiError here (a DomainError,
 * or the transport's RequestError), and that becomes the REST error body (docs/api.md,
 * "Requests and responses", "Error codes") or a tRPC error. Nothing a library or the database said reaches the client; only the
 * code's own message and the request id.
 */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  if (isClientAbort(error) || (error instanceof TRPCError && isClientAbort(error.cause))) {
    return new DomainError('VALIDATION_FAILED', 'The client closed the request before it was complete');
  }
  if (error instanceof TRPCError) {
    if (isApiError(error.cause)) return error.cause;
    if (error.cause instanceof z.ZodError) return fromZodError(error.cause);
    const cause = error.cause ?? error;
    if (isDatabaseUnavailable(cause)) return unavailable(cause);
    if (isConcurrencyAbort(cause)) return concurrencyConflict(cause);
    switch (error.code) {
      case 'PARSE_ERROR':
        return new DomainError('VALIDATION_FAILED', 'The request body is not valid JSON');
      case 'NOT_FOUND':
        return new DomainError('NOT_FOUND', 'Not found');
      case 'METHOD_NOT_SUPPORTED':
        return new RequestError('METHOD_NOT_ALLOWED', 'Method not allowed');
      case 'PAYLOAD_TOO_LARGE':
        return new DomainError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');
      case 'UNSUPPORTED_MEDIA_TYPE':
        return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
      case 'BAD_REQUEST':
        return new DomainError('VALIDATION_FAILED', 'The request is not valid');
      default:
        return new DomainError('INTERNAL', 'Internal error', { cause });
    }
  }
  if (error instanceof z.ZodError) return fromZodError(error);
  if (isDatabaseUnavailable(error)) return unavailable(error);
  if (isConcurrencyAbort(error)) return concurrencyConflict(error);
  return new DomainError('INTERNAL', 'Internal error', { cause: error });
}

/**
 * SQLSTATEs with which PostgreSQL (or Citus, across its nodes) aborts one of two transactions
 * that wait on each other: 40P01 deadlock detected, 40001 serialization failure. Nothing was
 * written, and the same request sent again goes through: a 409 with Retry-After, not a 500.
 */
const CONCURRENCY_STATES = new Set(['40P01', '40001']);

function isConcurrencyAbort(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && CONCURRENCY_STATES.has(state);
}

function concurrencyConflict(cause: unknown) {
  return new DomainError(
    'CONFLICT',
    'This request met a concurrent change to the same data and was not applied; send it again',
    { cause, retryAfterSeconds: 1 },
  );
}

export function fromZodError(error: z.ZodError): DomainError {
  const details = issueDetails(error);
  const summary = details
    .slice(0, 5)
    .map((d) => (d.path ? `${d.path} ${d.message}` : d.message))
    .join('; ');
  return new DomainError('VALIDATION_FAILED', `Invalid request: ${summary}`, { details });
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  'EHOSTUNREACH',
]);

/** Node's error for a request whose client hung up; not a database problem. */
function isClientAbort(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.message === 'aborted' &&
    (error as { code?: unknown }).code === 'ECONNRESET'
  );
}

/**
 * SQLSTATEs of a server that cannot serve now: connection exceptions (class 08), the server
 * shutting down, crashed or starting up (57P01–57P03), the session ended by the server
 * (57P05), too many connections (53300).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57P05', '53300']);

/**
 * What node-postgres, pg-pool and PostgreSQL say when the server is away, restarting, or the
 * pool cannot get a connection in time; errors without a code are known by their message.
 */
const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'timeout exceeded when trying to connect',
    'Connection terminated',
    'connection timeout',
    'is not queryable', // "Client has encountered a connection error …", "Client was closed …"
    'terminating connection due to',
    'the database system is (?:shutting down|starting up|in recovery mode|not (?:yet )?accepting connections)',
    'Cannot use a pool after calling end on the pool',
  ].join('|'),
  'i',
);

/**
 * Connection failures, a server shutting down, restarting or starting up, and "too many
 * connections" mean: try again later (503). The error may come wrapped — drizzle's
 * DrizzleQueryError, a TRPCError, any error with a `cause` — so the whole chain is read. A
 * client hanging up is never an outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  let unavailable = false;
  while (pending.length > 0 && seen.size < 16) {
    const current = pending.shift();
    if (!(current instanceof Error) || seen.has(current)) continue;
    seen.add(current);
    if (isClientAbort(current)) return false;
    if (signalsUnavailable(current)) unavailable = true;
    if (current.cause !== undefined) pending.push(current.cause);
    if (current instanceof AggregateError) pending.push(...current.errors);
  }
  return unavailable;
}

function signalsUnavailable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code)) return true;
    if (code.startsWith('08') || UNAVAILABLE_STATES.has(code)) return true;
  }
  return UNAVAILABLE_MESSAGE.test(error.message);
}

function unavailable(cause: unknown) {
  return new DomainError('UNAVAILABLE', 'The service cannot reach its database; try again shortly', {
    cause,
    retryAfterSeconds: 5,
  });
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: { error: { code: string; message: string; details?: ErrorDetail[]; requestId: string } };
}

/** The REST error response (docs/api.md, "Requests and responses"). */
export function toErrorResponse(error: unknown, requestId: string): ErrorResponse {
  const refusal = toApiError(error);
  return {
    status: statusOf(refusal),
    headers: errorHeaders(refusal),
    body: {
      error: {
        code: refusal.code,
        message: refusal.message,
        ...(refusal.details ? { details: refusal.details } : {}),
        requestId,
      },
    },
  };
}

export function toTRPCError(error: ApiError): TRPCError {
  return new TRPCError({ code: errorCodeMappings[error.code].trpc, message: error.message, cause: error });
}
