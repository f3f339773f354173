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
    querySerializer: serializeQuery,
  });
}

/**
 * The query string as the service reads it. Objects nest with brackets to any depth, so
 * `filter: { 'data.score': { gte: 50 } }` is `filter[data.score][gte]=50` (openapi-fetch's own
 * serializer stops at one level); a list at the top is repeated (`a=1&a=2`), a list inside
 * an object joined with commas (`filter[tier][in]=Gold,Silver`); undefined and null are left out.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const pairs: string[] = [];
  const add = (name: string, value: unknown, nested: boolean) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      if (nested) pairs.push(`${name}=${encodeURIComponent(value.map(String).join(','))}`);
      else for (const item of value) add(name, item, true);
    } else if (typeof value === 'object') {
      for (const [key, inner] of Object.entries(value))
        add(`${name}[${encodeURIComponent(key)}]`, inner, true);
    } else {
      pairs.push(`${name}=${encodeURIComponent(String(value))}`);
    }
  };
  for (const [key, value] of Object.entries(query)) add(encodeURIComponent(key), value, false);
  return pairs.join('&');
}

function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/api/v1') ? trimmed : `${trimmed}/api/v1`;
}
