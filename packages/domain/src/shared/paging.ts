import { z } from 'zod';
import { decodeCursor, encodeCursor, type Keyset } from './cursor.ts';
import { DomainError } from './errors.ts';

export const MAX_PAGE_SIZE = 200;
const DEFAULT_PAGE_SIZE = 50;

/** Query parameters of every list (docs/api.md, "Paging"). */
export const pagingInput = {
  page: z
    .number()
    .int()
    .min(1, 'must be between 1 and 1000000')
    .max(1_000_000, 'must be between 1 and 1000000')
    .optional()
    .meta({ description: '1-based page number (default 1). Not together with `cursor`.' }),
  pageSize: z
    .number()
    .int()
    .min(1, `must be between 1 and ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `must be between 1 and ${MAX_PAGE_SIZE}`)
    .optional()
    .meta({ description: `Items per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` }),
  cursor: z.string().max(500).transform(emptyAsAbsent).optional().meta({
    description:
      'The `meta.nextCursor` of the previous page (keyset paging). Empty (`cursor=`) means the first page.',
  }),
};

/**
 * No-code tools (n8n's pagination, for one) send `cursor=` on their first call: an empty
 * cursor is the same as none, so it means the first page and may go with `page`. Lists with
 * a cursor parameter of another name (the event feed's `after`) use it too.
 */
export function emptyAsAbsent(cursor: string): string | undefined {
  return cursor === '' ? undefined : cursor;
}

export interface PagingInput {
  page?: number | undefined;
  pageSize?: number | undefined;
  cursor?: string | undefined;
}

export type Paging =
  | { kind: 'offset'; page: number; pageSize: number; offset: number }
  | { kind: 'cursor'; pageSize: number; after: Keyset };

export function resolvePaging(input: PagingInput): Paging {
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw rangeError('pageSize', `must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  const cursor = input.cursor === '' ? undefined : input.cursor;
  if (cursor !== undefined) {
    if (input.page !== undefined) throw rangeError('page', 'cannot be combined with cursor');
    return { kind: 'cursor', pageSize, after: decodeCursor(cursor) };
  }
  const page = input.page ?? 1;
  if (page < 1 || page > 1_000_000) throw rangeError('page', 'must be between 1 and 1000000');
  return { kind: 'offset', page, pageSize, offset: (page - 1) * pageSize };
}

function rangeError(path: string, message: string) {
  return new DomainError('VALIDATION_FAILED', `${path} ${message}`, { details: [{ path, message }] });
}

export interface PageMeta {
  page: number | null;
  pageSize: number;
  hasMore: boolean;
  nextCursor: string | null;
  /**
   * The next page's absolute URL. A page is built knowing nothing of URLs, so it is null
   * here; the REST layer sets it from the request's URL (docs/api.md, "Paging").
   */
  nextUrl: string | null;
}

/**
 * Builds a page from rows fetched with `limit pageSize + 1`: the extra row only tells
 * whether there is more. `cursorOf` turns the last row shown into `meta.nextCursor`.
 */
export function pageOf<Row, Item>(
  rows: Row[],
  paging: { kind: 'offset'; page: number; pageSize: number } | { kind: 'cursor'; pageSize: number },
  serialize: (row: Row) => Item,
  cursorOf: (row: Row) => string,
): { data: Item[]; meta: PageMeta } {
  const hasMore = rows.length > paging.pageSize;
  const visible = hasMore ? rows.slice(0, paging.pageSize) : rows;
  const last = visible[visible.length - 1];
  return {
    data: visible.map(serialize),
    meta: {
      page: paging.kind === 'offset' ? paging.page : null,
      pageSize: paging.pageSize,
      hasMore,
      nextCursor: hasMore && last !== undefined ? cursorOf(last) : null,
      nextUrl: null,
    },
  };
}

/** A page in the usual (createdAt, id) order. */
export function toPage<Row extends { createdAt: Date; id: string }, Item>(
  rows: Row[],
  paging: Paging,
  serialize: (row: Row) => Item,
): { data: Item[]; meta: PageMeta } {
  return pageOf(rows, paging, serialize, (row) =>
    encodeCursor({ createdAt: row.createdAt.toISOString(), id: row.id }),
  );
}
