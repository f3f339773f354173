/**
 * The domain's error codes (docs/api.md, "Error codes"): what went wrong, in the domain's
 * words. What each code is over HTTP (its status) and tRPC (its code) is the API layer's table
 * (`errorCodeMappings` in packages/api/src/errors.ts), which must name every code here. Codes
 * only a transport can raise (a method a path does not take, an If-Match that no longer holds)
 * are the API layer's own (`transportErrorCodes` there), not the domain's.
 */
export const errorCodes = [
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'GONE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** The codes that say the service failed (its fault, or its database away); every other code refuses the request. */
const SERVICE_FAILURES: ReadonlySet<ErrorCode> = new Set(['INTERNAL', 'UNAVAILABLE']);

/**
 * Whether the code refuses what was asked (the caller's to change) rather than reporting a
 * failure of the service: a batch keeps the other items of a refused one, a workflow step
 * refused is not retried.
 */
export const isRefusal = (code: ErrorCode): boolean => !SERVICE_FAILURES.has(code);

export interface ErrorDetail {
  /** Dotted path of the offending input, e.g. `data.stage`. */
  path: string;
  message: string;
}

/**
 * The credential a refusal asks for: a bearer token (an API key, an OAuth access token), and
 * where to learn how to get one (the protected-resource metadata of docs/mcp.md, "OAuth").
 */
export interface CredentialChallenge {
  scheme: 'Bearer';
  resourceMetadata?: string;
}

export interface DomainErrorOptions {
  details?: ErrorDetail[];
  /** When the same request may succeed again (a rate limit, a conflict, an outage), in seconds. */
  retryAfterSeconds?: number;
  /** For UNAUTHORIZED: the credential to send. */
  challenge?: CredentialChallenge;
  cause?: unknown;
}

/**
 * A refusal or failure named by a code of some registry, with a message for the caller and
 * data about it. The domain's errors are `DomainError`s; the API layer adds its own codes with
 * a class of its own on this one, so both reach the caller through one renderer.
 */
export class CodedError<Code extends string> extends Error {
  readonly code: Code;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly challenge: CredentialChallenge | undefined;

  constructor(code: Code, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.challenge = options.challenge;
  }
}

/**
 * A refusal or failure in the domain's words: one of its codes, a message for the caller, and
 * data about it. The API layer turns it into a status, a tRPC code and headers
 * (packages/api/src/errors.ts).
 */
export class DomainError extends CodedError<ErrorCode> {
  override readonly name = 'DomainError';
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
