import type { AppRouter } from '@crm/api';
import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  splitLink,
  TRPCClientError,
  type TRPCLink,
} from '@trpc/client';

let csrfToken = '';

/** The session's CSRF token, sent on every /trpc request (the server refuses one without it). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** The session's CSRF token, for a request made outside tRPC (a job's file upload, lib/job-files.ts). */
export function currentCsrfToken(): string {
  return csrfToken;
}

/**
 * A paged query (TanStack Query's infinite query) adds `direction` to the input beside the
 * cursor. Lists page forward only and refuse a parameter they do not declare, so it is taken
 * out before the call.
 */
const forwardPages: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) => {
    const input = op.input as Record<string, unknown> | null | undefined;
    if (op.type !== 'query' || typeof input !== 'object' || input === null || !('direction' in input)) {
      return next(op);
    }
    const { direction: _direction, ...rest } = input;
    return next({ ...op, input: rest });
  };

/**
 * `records.related` calls made together, as the MANY relation cells of a page of the records
 * table make them (one per row, docs/web-app.md "Relations"), go to the server as one request,
 * a tRPC batch of at most 50 calls (a page's rows) in a URL well under Node's 16 KiB limit
 * on a request's head. The server runs each call of a batch as if it came alone.
 */
const BATCHED = new Set(['records.related']);
const MAX_BATCH_CALLS = 50;
const MAX_BATCH_URL = 8000;

/** The same routers the REST API comes from, over the session cookie. */
export const trpc = createTRPCClient<AppRouter>({
  links: [
    forwardPages,
    splitLink({
      condition: (op) => BATCHED.has(op.path),
      true: httpBatchLink({
        url: '/trpc',
        headers: () => ({ 'X-CSRF-Token': csrfToken }),
        maxItems: MAX_BATCH_CALLS,
        maxURLLength: MAX_BATCH_URL,
      }),
      false: httpLink({ url: '/trpc', headers: () => ({ 'X-CSRF-Token': csrfToken }) }),
    }),
  ],
});

/**
 * The same, for the CSV import's writes: the server records them as an import by the signed-in
 * user (`X-Change-Source: import`, docs/api.md "History and provenance").
 */
export const importTrpc = createTRPCClient<AppRouter>({
  links: [
    httpLink({ url: '/trpc', headers: () => ({ 'X-CSRF-Token': csrfToken, 'X-Change-Source': 'import' }) }),
  ],
});

export interface Problem {
  /** The whole message, shown above a form. */
  message: string;
  /** Messages by input path (`email`, `data.company`), shown next to their fields. */
  fields: Record<string, string>;
  status: number | null;
}

/**
 * Reads the REST error body out of whatever a call threw (docs/api.md, "Requests and
 * responses", "tRPC").
 */
export function toProblem(error: unknown): Problem {
  if (error instanceof TRPCClientError) {
    const data = error.data as
      | { httpStatus?: number; error?: { message: string; details?: { path: string; message: string }[] } }
      | undefined;
    const fields: Record<string, string> = {};
    for (const detail of data?.error?.details ?? []) fields[detail.path] ??= detail.message;
    return { message: data?.error?.message ?? error.message, fields, status: data?.httpStatus ?? null };
  }
  if (error instanceof HttpError)
    return { message: error.message, fields: error.fields, status: error.status };
  return { message: error instanceof Error ? error.message : String(error), fields: {}, status: null };
}

/** A failed call to the sign-in routes (plain JSON, not tRPC). */
export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string>,
  ) {
    super(message);
  }
}

/** POST/GET against /auth/*: JSON in, the `data` of the envelope out, the error body as HttpError. */
export function authCall<T>(path: string, body?: unknown): Promise<T> {
  return jsonCall<T>(`/auth/${path}`, body === undefined && path === 'session' ? 'GET' : 'POST', body);
}

/**
 * A JSON call outside tRPC (sign-in, the OAuth consent page) with the session's CSRF token:
 * the `data` of the answer's envelope, or its error body as an HttpError.
 */
export async function jsonCall<T>(url: string, method: 'GET' | 'POST', body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      'X-CSRF-Token': csrfToken,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json().catch(() => null)) as {
    data?: T;
    error?: { message: string; details?: { path: string; message: string }[] };
  } | null;
  if (!res.ok || !json?.data) {
    const fields: Record<string, string> = {};
    for (const detail of json?.error?.details ?? []) fields[detail.path] ??= detail.message;
    throw new HttpError(json?.error?.message ?? `Request failed (${res.status})`, res.status, fields);
  }
  return json.data;
}
