import type { MaybeOptionalInit } from 'openapi-fetch';
import type { CrmClient } from './client.ts';
import { ApiError } from './errors.ts';
import type { paths } from './schema.d.ts';

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type OkBody<Path extends keyof paths> = paths[Path] extends { get: { responses: { 200: infer R } } }
  ? JsonOf<R>
  : never;
interface PageBody {
  data: readonly unknown[];
  meta: { hasMore: boolean; nextCursor: string | null };
}

/** The GET paths that answer a paged list (`{ data: [...], meta: { nextCursor, … } }`). */
export type ListPath = {
  [Path in keyof paths]: OkBody<Path> extends PageBody ? Path : never;
}[keyof paths];

/** One item of the list at `Path`, e.g. a record for `/records`. */
export type ListItem<Path extends ListPath> =
  OkBody<Path> extends { data: readonly (infer Item)[] } ? Item : never;

/** The options of the list's GET (`params.query` for filters, `params.path` for ids …). */
export type ListInit<Path extends ListPath> = MaybeOptionalInit<paths[Path], 'get'>;

type InitArgs<Path extends ListPath> =
  undefined extends ListInit<Path> ? [init?: ListInit<Path>] : [init: ListInit<Path>];

type Get = (
  path: string,
  init: { params?: { query?: Record<string, unknown> } },
) => Promise<{ data?: PageBody; error?: unknown; response: Response }>;

/**
 * Every item of a list, page after page, following `meta.nextCursor` (keyset paging: stable
 * while others write, the same cost at any depth). Filters, sort and `pageSize` go in
 * `params.query` as for a single page; `page` and `cursor` are the iterator's own. A failed
 * page throws an `ApiError`.
 *
 * ```ts
 * for await (const record of paginate(client, '/records', { params: { query: { folderId } } })) …
 * ```
 */
export async function* paginate<Path extends ListPath>(
  client: CrmClient,
  path: Path,
  ...[init]: InitArgs<Path>
): AsyncGenerator<ListItem<Path>, void, undefined> {
  const options = (init ?? {}) as { params?: { query?: Record<string, unknown> } };
  const { page: _page, cursor: _cursor, ...query } = options.params?.query ?? {};
  const get = client.GET as unknown as Get;
  let cursor: string | undefined;
  for (;;) {
    const { data, error, response } = await get(path, {
      ...options,
      params: { ...options.params, query: cursor === undefined ? query : { ...query, cursor } },
    });
    if (!data) throw new ApiError(response.status, error);
    for (const item of data.data) yield item as ListItem<Path>;
    if (!data.meta.hasMore || !data.meta.nextCursor) return;
    cursor = data.meta.nextCursor;
  }
}
