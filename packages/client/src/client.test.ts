import { describe, expect, it } from 'vitest';
import { createClient, serializeQuery } from './client.ts';

describe('serializeQuery', () => {
  it('writes filters with operators as the service reads them', () => {
    expect(
      serializeQuery({
        folderId: 'fld_1',
        filter: { 'data.lifecycle': 'Customer', 'data.score': { gte: 50 }, email: { contains: '@acme.com' } },
        sort: '-updatedAt',
        count: true,
        cursor: undefined,
        q: null,
      }),
    ).toBe(
      'folderId=fld_1&filter[data.lifecycle]=Customer&filter[data.score][gte]=50&filter[email][contains]=%40acme.com&sort=-updatedAt&count=true',
    );
  });

  it('joins a nested list with commas, repeats a top-level one, encodes names and values', () => {
    expect(serializeQuery({ filter: { 'data.tier': { in: ['Gold', 'Silver & Co'] } } })).toBe(
      'filter[data.tier][in]=Gold%2CSilver%20%26%20Co',
    );
    expect(serializeQuery({ ids: ['a', 'b'], 'a b': 'c=d' })).toBe('ids=a&ids=b&a%20b=c%3Dd');
    expect(serializeQuery({})).toBe('');
  });

  it('is what the client sends', async () => {
    const urls: string[] = [];
    const client = createClient({
      baseUrl: 'https://crm.test',
      apiKey: 'k',
      fetch: async (input) => {
        urls.push((input as Request).url);
        return Response.json({ data: [], meta: { page: 1, pageSize: 50, hasMore: false, nextCursor: null } });
      },
    });
    await client.GET('/records', {
      params: { query: { filter: { 'data.score': { gte: 50 }, 'data.lifecycle': 'Lead' }, pageSize: 10 } },
    });
    expect(decodeURI(urls[0]!)).toBe(
      'https://crm.test/api/v1/records?filter[data.score][gte]=50&filter[data.lifecycle]=Lead&pageSize=10',
    );
  });
});
