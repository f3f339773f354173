import { createCallInput, findRecordsInput } from '@crm/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeQueryValues, queryDecoderOf } from './rest-input.ts';
import { collectRestRoutes } from './rest-routes.ts';
import { appRouter } from './routers/index.ts';

const decode = (schema: z.ZodType, input: Record<string, unknown>, keys?: string[]) => {
  decodeQueryValues(queryDecoderOf(schema), input, keys);
  return input;
};

describe('query decoder', () => {
  const schema = z.strictObject({
    pageSize: z.int().min(1).optional(),
    ratio: z.number().nullable().default(1),
    count: z.boolean().optional(),
    ids: z.array(z.string()).optional(),
    sizes: z.array(z.number()),
    title: z.string().optional(),
    sort: z.enum(['asc', 'desc']).optional(),
    at: z
      .string()
      .transform((s) => s.length)
      .optional(),
    filter: z.object({ score: z.object({ gte: z.number() }), name: z.string() }).optional(),
  });

  it('reads numbers with Number(), booleans from true and false, and leaves other text as sent', () => {
    expect(
      decode(schema, {
        pageSize: '50',
        ratio: '0.5',
        count: 'true',
        title: '12',
        sort: 'asc',
        at: '7',
      }),
    ).toEqual({ pageSize: 50, ratio: 0.5, count: true, title: '12', sort: 'asc', at: '7' });
    expect(decode(schema, { pageSize: 'x', count: 'false' })).toEqual({ pageSize: Number.NaN, count: false });
    // What the schema then refuses, by its own rules.
    expect(decode(schema, { pageSize: '', count: 'yes' })).toEqual({ pageSize: 0, count: 'yes' });
  });

  it('makes a list of a key given once, and reads each item', () => {
    expect(decode(schema, { ids: 'a', sizes: ['1', '2'] })).toEqual({ ids: ['a'], sizes: [1, 2] });
    expect(decode(schema, { sizes: '3' })).toEqual({ sizes: [3] });
  });

  it('reads the keys of a bracketed object, and leaves a repeated scalar for the schema to refuse', () => {
    const filter = Object.assign(Object.create(null), {
      score: Object.assign(Object.create(null), { gte: '5' }),
    });
    filter.name = '9';
    const input = decode(schema, { filter, pageSize: ['1', '2'] });
    expect(JSON.parse(JSON.stringify(input))).toEqual({
      filter: { score: { gte: 5 }, name: '9' },
      pageSize: ['1', '2'],
    });
  });

  it('reads only the keys it is given, for the query parameters of a POST', () => {
    expect(decode(schema, { pageSize: '5', ratio: '2' }, ['ratio'])).toEqual({ pageSize: '5', ratio: 2 });
  });

  it('does not follow a lazy (recursive) schema, and reads objects as deep as brackets nest', () => {
    type Node = { value?: number; not?: Node };
    const node: z.ZodType<Node> = z.lazy(() =>
      z.object({ value: z.number().optional(), not: node.optional() }),
    );
    // `a[b][n]=1` nests two brackets deep, the most a query may (rest/query-string.ts).
    const deep = z.object({
      a: z.object({ b: z.object({ n: z.number(), c: z.object({ n: z.number() }) }) }),
    });
    expect(queryDecoderOf(z.object({ filter: node.optional() })).fields.size).toBe(0);
    const b = queryDecoderOf(deep).fields.get('a')?.object?.fields.get('b')?.object;
    expect(b?.fields.get('n')?.scalar).toBe('number');
    expect(b?.fields.has('c')).toBe(false);
  });

  it('knows an input that takes nothing, and takes any query for a procedure without an input', () => {
    expect(queryDecoderOf(z.void()).takesInput).toBe(false);
    expect(queryDecoderOf(undefined).takesInput).toBe(true);
    expect(queryDecoderOf(z.object({ a: z.number() }).optional()).fields.get('a')?.scalar).toBe('number');
  });

  it('changes no schema: /trpc and JSON bodies still refuse a number sent as text', () => {
    for (const route of collectRestRoutes(appRouter)) expect(route.query.takesInput, route.path).toBe(true);
    expect(findRecordsInput.safeParse({ pageSize: '5' }).success).toBe(false);
    expect(findRecordsInput.safeParse({ pageSize: 5 }).success).toBe(true);
    expect(createCallInput.safeParse({ id: 'rec_1', duration: '12' }).success).toBe(false);
    expect(schema.safeParse({ sizes: ['1'] }).success).toBe(false);
  });

  it('reads the paging numbers of every list from its query', () => {
    const lists = collectRestRoutes(appRouter).filter((r) => r.method === 'GET' && r.kind.list);
    expect(lists.length).toBeGreaterThan(10);
    for (const route of lists) {
      expect(route.query.fields.get('pageSize')?.scalar, `${route.path} pageSize`).toBe('number');
    }
  });
});
