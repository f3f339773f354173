import createFetchClient, { type Client } from 'openapi-fetch';
import { type FetchLike, type RetryOptions, withRetry } from './retry.ts';
import type { paths } from './schema.d.ts';

/** The typed client: `client.GET('/records/{id}', { params: { path: { id } } })` and so on. */
export type CrmClient = Client<paths>;

export interface CreateClientOptions {
  /**
   * The service's address, e.g. `https://crm.example.com`; `/api/v1` is added unless the
   * address already ends with it.
   */
  baseUrl: string;
  /** An API key, `crm_…`; sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** The fetch to send requests with (default the global one). */
  fetch?: FetchLike;
  /**
   * Retries of 429, 503 and network errors with one `Idempotency-Key` per POST and PATCH
   * (see `withRetry`); on by default, `false` sends every request once.
   */
  retry?: RetryOptions | false;
  /** Headers sent with every request besides `Authorization`. */
  headers?: Record<string, string>;
}

/** A client for the REST API, typed from its OpenAPI document. */
export function createClient(options: CreateClientOptions): CrmClient {
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const send = options.retry === false ? baseFetch : withRetry(baseFetch, options.retry ?? {});
  return createFetchClient<paths>({
    baseUrl: apiBase(options.baseUrl),
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    fetch: (request) => send(request),
  });
}

function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/api/v1') ? trimmed : `${trimmed}/api/v1`;
}
