import type { components } from './schema.d.ts';

type ErrorObject = components['schemas']['Error']['error'];

/** A failed call: the HTTP status and the service's `{ error: { code, message, details?, requestId } }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly details: ErrorObject['details'];

  constructor(status: number, body: unknown) {
    const error = (body as { error?: Partial<ErrorObject> } | undefined)?.error;
    super(error?.message ?? `The service answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = error?.code;
    this.requestId = error?.requestId;
    this.details = error?.details;
  }
}
