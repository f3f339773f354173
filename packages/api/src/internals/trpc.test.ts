import { callTRPCProcedure, initTRPC } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '../routers/index.ts';
import { builderMiddlewares, hasProcedure, outputOnlyBuilder, proceduresOf } from './trpc.ts';

/**
 * The shapes of tRPC that internals/trpc.ts reads and tRPC's public types do not promise. An
 * upgrade of @trpc/server that moves one fails here, naming it.
 */
describe('tRPC internals this service relies on', () => {
  const t = initTRPC.create();

  it('a router keeps its procedures flattened by path in _def.procedures, nested routers included', () => {
    const inner = t.router({ get: t.procedure.input(z.object({ id: z.string() })).query(() => 'x') });
    const router = t.router({ records: inner, ping: t.procedure.mutation(() => 'pong') });
    expect(Object.keys(router._def.procedures).sort()).toEqual(['ping', 'records.get']);
    expect(hasProcedure(router, 'records.get')).toBe(true);
    expect(hasProcedure(router, 'records')).toBe(false);
    expect(hasProcedure(router, 'toString')).toBe(false);
  });

  it('a procedure keeps its type, meta, input parsers, output parser and middlewares in _def', () => {
    const input = z.object({ id: z.string() });
    const output = z.object({ ok: z.boolean() });
    const router = t.router({
      get: t.procedure
        .meta({ scope: 'x' })
        .input(input)
        .output(output)
        .query(() => ({ ok: true })),
    });
    const [entry] = proceduresOf(router);
    expect(entry).toMatchObject({ path: 'get', type: 'query', meta: { scope: 'x' }, input, output });
    // The input parser's middleware, the output parse `.output()` adds (declared-output.test.ts
    // looks for it by this mark), then the resolver.
    expect(entry!.middlewares.map((m) => m._type)).toEqual(['input', 'output', undefined]);
  });

  it('reads every procedure of the app router', () => {
    const entries = proceduresOf(appRouter);
    expect(entries.length).toBe(Object.keys(appRouter._def.procedures).length);
    expect(entries.length).toBeGreaterThan(50);
    for (const entry of entries) {
      expect(['query', 'mutation'], entry.path).toContain(entry.type);
      expect(typeof entry.procedure, entry.path).toBe('function');
      expect(entry.middlewares.length, entry.path).toBeGreaterThan(0);
    }
  });

  it("a builder's middlewares are in _def.middlewares", () => {
    const authed = t.procedure.use(({ next }) => next());
    expect(builderMiddlewares(authed)).toHaveLength(1);
    expect(builderMiddlewares(authed.use(({ next }) => next()))).toHaveLength(2);
  });

  it('outputOnlyBuilder declares an output that the call does not parse', async () => {
    const schema = z.object({ id: z.string() });
    const builder = outputOnlyBuilder<object, object, typeof schema>(schema);
    expect(builder._def.output).toBe(schema);
    expect(builder._def.middlewares).toEqual([]);
    // A resolver that answers more than the schema declares: a parse would strip `extra`.
    const router = t.router({
      get: t.procedure.concat(builder).query(() => ({ id: 'a', extra: 1 }) as { id: string }),
    });
    expect(proceduresOf(router)[0]!.output).toBe(schema);
    const answer = await callTRPCProcedure({
      router,
      path: 'get',
      type: 'query',
      ctx: {},
      getRawInput: async () => undefined,
      signal: undefined,
      batchIndex: 0,
    });
    expect(answer).toEqual({ id: 'a', extra: 1 });
  });

  it('callTRPCProcedure runs the middlewares with the raw input given and refuses a wrong type', async () => {
    const router = t.router({
      echo: t.procedure.input(z.object({ n: z.number() })).mutation(({ input }) => input.n * 2),
    });
    const call = (type: 'query' | 'mutation', raw: unknown) =>
      callTRPCProcedure({
        router,
        path: 'echo',
        type,
        ctx: {},
        getRawInput: async () => raw,
        signal: undefined,
        batchIndex: 0,
      });
    expect(await call('mutation', { n: 21 })).toBe(42);
    await expect(call('mutation', { n: '21' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(call('query', { n: 21 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
