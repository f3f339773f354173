import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient } from './client.ts';
import { ApiError } from './errors.ts';
import { paginate } from './paginate.ts';
import type { components } from './schema.d.ts';

type Page = {
  data: { id: string }[];
  meta: { page: null; pageSize: number; hasMore: boolean; nextCursor: string | null };
};

/** A fake service holding `total` records, answering GET /records by cursor. */
function fakeService(total: number, pageSize: number) {
  const urls: URL[] = [];
  const ids = Array.from({ length: total }, (_, i) => `rec_${i}`);
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(new Request(input, init).url);
    urls.push(url);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const data = ids.slice(start, start + pageSize).map((id) => ({ id }));
    const end = start + data.length;
    const body: Page = {
      data,
      meta: { page: null, pageSize, hasMore: end < total, nextCursor: end < total ? String(end) : null },
    };
    return Response.json(body);
  };
  return { fetch, urls };
}

describe('paginate', () => {
  it('yields every item of every page, following meta.nextCursor, keeping the filters', async () => {
    const service = fakeService(7, 3);
    const client = createClient({ baseUrl: 'https://crm.test', apiKey: 'k', fetch: service.fetch });
    const ids: string[] = [];
    for await (const record of paginate(client, '/records', {
      params: { query: { folderId: 'fld_1', pageSize: 3, page: 2 } },
    })) {
      expectTypeOf(record).toEqualTypeOf<components['schemas']['Record']>();
      ids.push(record.id);
    }
    expect(ids).toEqual(['rec_0', 'rec_1', 'rec_2', 'rec_3', 'rec_4', 'rec_5', 'rec_6']);
    expect(service.urls.map((u) => u.searchParams.get('cursor'))).toEqual([null, '3', '6']);
    for (const url of service.urls) {
      expect(url.pathname).toBe('/api/v1/records');
      expect(url.searchParams.get('folderId')).toBe('fld_1');
      expect(url.searchParams.get('pageSize')).toBe('3');
      // `page` and `cursor` together are refused by the service: the iterator drops `page`.
      expect(url.searchParams.has('page')).toBe(false);
    }
  });

  it('stops after one page when there is no next one, and yields nothing for an empty list', async () => {
    for (const [total, expected] of [
      [2, 2],
      [0, 0],
    ] as const) {
      const service = fakeService(total, 5);
      const client = createClient({ baseUrl: 'https://crm.test', apiKey: 'k', fetch: service.fetch });
      let count = 0;
      for await (const _ of paginate(client, '/folders')) count++;
      expect(count).toBe(expected);
      expect(service.urls).toHaveLength(1);
    }
  });

  it('can stop early without reading further pages', async () => {
    const service = fakeService(10, 2);
    const client = createClient({ baseUrl: 'https://crm.test', apiKey: 'k', fetch: service.fetch });
    for await (const record of paginate(client, '/records')) if (record.id === 'rec_2') break;
    expect(service.urls).toHaveLength(2);
  });

  it('throws an ApiError with the status, code and request id of a failed page', async () => {
    const client = createClient({
      baseUrl: 'https://crm.test',
      apiKey: 'k',
      retry: false,
      fetch: async () =>
        Response.json(
          { error: { code: 'NOT_FOUND', message: 'Record not found', requestId: 'req_9' } },
          { status: 404 },
        ),
    });
    const iterator = paginate(client, '/records/{id}/comments', { params: { path: { id: 'rec_x' } } });
    const error = await iterator.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      requestId: 'req_9',
      message: 'Record not found',
    });
  });

  it('is typed: only list paths, their own params, their own items', () => {
    const client = createClient({ baseUrl: 'https://crm.test', apiKey: 'k' });
    expectTypeOf(paginate(client, '/tasks')).toEqualTypeOf<
      AsyncGenerator<components['schemas']['Task'], void, undefined>
    >();
    // @ts-expect-error a single record is not a list
    void paginate(client, '/records/{id}', { params: { path: { id: 'rec_1' } } });
    // @ts-expect-error the comments of a record need the record's id
    void paginate(client, '/records/{id}/comments');
    // @ts-expect-error deals are listed per pipeline
    void paginate(client, '/deals');
  });
});
