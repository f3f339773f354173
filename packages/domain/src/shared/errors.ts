/**
 * The one registry of error codes (docs/api.md, "Error codes"). Each code has its HTTP status
 * and its tRPC code here and nowhere else; the API layer turns a DomainError into the REST
 * error body or a tRPC error from this table.
 */
export const errorCodes = {
  VALIDATION_FAILED: { status: 400, trpc: 'BAD_REQUEST' },
  UNAUTHORIZED: { status: 401, trpc: 'UNAUTHORIZED' },
  FORBIDDEN: { status: 403, trpc: 'FORBIDDEN' },
  NOT_FOUND: { status: 404, trpc: 'NOT_FOUND' },
  METHOD_NOT_ALLOWED: { status: 405, trpc: 'METHOD_NOT_SUPPORTED' },
  CONFLICT: { status: 409, trpc: 'CONFLICT' },
  PRECONDITION_FAILED: { status: 412, trpc: 'PRECONDITION_FAILED' },
  PAYLOAD_TOO_LARGE: { status: 413, trpc: 'PAYLOAD_TOO_LARGE' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, trpc: 'UNSUPPORTED_MEDIA_TYPE' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, trpc: 'UNPROCESSABLE_CONTENT' },
  RATE_LIMITED: { status: 429, trpc: 'TOO_MANY_REQUESTS' },
  INTERNAL: { status: 500, trpc: 'INTERNAL_SERVER_ERROR' },
  UNAVAILABLE: { status: 503, trpc: 'SERVICE_UNAVAILABLE' },
} as const;

export type ErrorCode = keyof typeof errorCodes;

export interface ErrorDetail {
  /** Dotted path of the offending input, e.g. `data.stage`. */
  path: string;
  message: string;
}

export interface DomainErrorOptions {
  details?: ErrorDetail[];
  /** Response headers the error implies, e.g. Retry-After. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return errorCodes[this.code].status;
  }
}

export const notFound = (what: string, id: string) => new DomainError('NOT_FOUND', `${what} ${id} not found`);

export const invalid = (path: string, message: string) =>
  new DomainError('VALIDATION_FAILED', `${path}: ${message}`, { details: [{ path, message }] });

/**
 * For references in a body (a folderId, a pipelineId): a referenced row that is not found
 * makes the request invalid (400), not the URL unknown (404). Other errors pass through.
 */
export const invalidReference = (path: string, message: string) => (error: unknown) => {
  if (error instanceof DomainError && error.code === 'NOT_FOUND') throw invalid(path, message);
  throw error;
};
