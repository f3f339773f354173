import { describe, expect, it } from 'vitest';
import { proceduresOf } from './internals/trpc.ts';
import { collectRestRoutes, matchRestRoute, rawPathParams } from './rest-routes.ts';
import { appRouter } from './routers/index.ts';
import type { ApiMeta } from './trpc.ts';

const routes = collectRestRoutes(appRouter);
/** The procedures that declare a REST route, with their meta. */
const restProcedures = proceduresOf(appRouter).flatMap(({ path, type, meta }) => {
  const m = meta as ApiMeta | undefined;
  return m?.openapi
    ? [{ path, type, meta: m as ApiMeta & { openapi: NonNullable<ApiMeta['openapi']> } }]
    : [];
});

function matched(method: string, path: string) {
  const match = matchRestRoute(routes, method, path);
  return match.kind === 'found' ? `${match.route.method} ${match.route.path}` : match;
}

describe('REST route matching', () => {
  it('takes a literal segment before a parameter', () => {
    expect(matched('PATCH', '/records/batch')).toBe('PATCH /records/batch');
    expect(matched('POST', '/records/batch')).toBe('POST /records/batch');
    expect(matched('PATCH', '/records/rec_01jq3v6f6ve7s9t8m1k2c3d4e5')).toBe('PATCH /records/{id}');
    expect(matched('POST', '/records/batch/trash')).toBe('POST /records/batch/trash');
    expect(matched('POST', '/records/rec_1/restore')).toBe('POST /records/{id}/restore');
    expect(matched('PATCH', '/deals/batch')).toBe('PATCH /deals/batch');
    expect(matched('POST', '/tasks/batch/delete')).toBe('POST /tasks/batch/delete');
  });

  it('answers a method the literal route lacks with 405, even where the parameter route has it', () => {
    expect(matched('GET', '/records/batch')).toEqual({ kind: 'wrong-method', allow: ['POST', 'PATCH'] });
    expect(matched('DELETE', '/deals/batch')).toEqual({ kind: 'wrong-method', allow: ['POST', 'PATCH'] });
    expect(matched('GET', '/tasks/batch/delete')).toEqual({ kind: 'wrong-method', allow: ['POST'] });
    expect(matched('GET', '/nowhere')).toEqual({ kind: 'none' });
  });

  it('matches as the templates read as patterns would: any case, one trailing slash, no empty parameter', () => {
    // The rule written as regular expressions, one per template, the best precedence first.
    const patterns = routes.map((route) => ({
      route,
      pattern: new RegExp(
        `^${route.path
          .split('/')
          .map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/')}/?$`,
        'i',
      ),
      precedence: route.path
        .split('/')
        .map((s) => (/^\{.+\}$/.test(s) ? '1' : '0'))
        .join(''),
    }));
    function byPatterns(method: string, path: string) {
      const matching = patterns.filter((p) => p.pattern.test(path));
      if (matching.length === 0) return { kind: 'none' };
      const best = matching.map((p) => p.precedence).sort()[0];
      const top = matching.filter((p) => p.precedence === best).map((p) => p.route);
      const route = top.find((r) => r.method === method);
      if (route) return `${route.method} ${route.path}`;
      return { kind: 'wrong-method', allow: [...new Set(top.map((r) => r.method))] };
    }
    const variants = (path: string) => [
      path,
      `${path}/`,
      `${path}//`,
      path.toUpperCase(),
      path.replace(/\{\w+\}/g, 'x_1'),
      path.replace(/\{\w+\}/g, 'BATCH'),
      path.replace(/\{\w+\}/g, ''),
      path.replace(/\{\w+\}/g, 'a%2Fb'),
      `${path.replace(/\{\w+\}/g, 'x')}/extra`,
      path.replace(/\/[^/]*$/, ''),
      `/${path}`,
    ];
    const methods = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'];
    let compared = 0;
    for (const route of routes) {
      for (const path of [...variants(route.path), '/', '', '//', '/nowhere']) {
        for (const method of methods) {
          expect(matched(method, path), `${method} ${path}`).toEqual(byPatterns(method, path));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(routes.length * 50);
  });

  it('gives the path parameters as sent, for every route: case kept, not decoded', () => {
    for (const route of routes) {
      let n = 0;
      const path = route.path.replace(/\{\w+\}/g, () => `Id_${++n}%5Fx`);
      const expected = Object.fromEntries(route.pathParams.map((name, i) => [name, `Id_${i + 1}%5Fx`]));
      for (const sent of [path, `${path}/`]) {
        const match = matchRestRoute(routes, route.method, sent);
        if (match.kind !== 'found' || match.route !== route) continue;
        expect(rawPathParams(route, sent), `${route.method} ${sent}`).toEqual(expected);
      }
    }
    const record = routes.find((r) => r.method === 'GET' && r.path === '/records/{id}/comments');
    expect(record && rawPathParams(record, '/records/rec_A%2F1/comments')).toEqual({ id: 'rec_A%2F1' });
  });

  it('matches the same whatever order the routers declare their procedures in', () => {
    const reversed = [...routes].reverse();
    const summary = (table: typeof routes, method: string, path: string) => {
      const match = matchRestRoute(table, method, path);
      if (match.kind === 'found') return `${match.route.method} ${match.route.path}`;
      return match.kind === 'wrong-method' ? `405 ${[...match.allow].sort().join(',')}` : '404';
    };
    for (const route of routes) {
      // `batch` in every parameter: a literal route's path that parameter routes match too.
      const path = route.path.replace(/\{\w+\}/g, 'batch');
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
        expect(summary(reversed, method, path), `${method} ${path}`).toBe(summary(routes, method, path));
      }
    }
  });

  it('serves each route with the procedure that declares it', () => {
    for (const { path, type, meta } of restProcedures) {
      const route = routes.find((r) => r.method === meta.openapi.method && r.path === meta.openapi.path);
      expect(route?.procedure, `${meta.openapi.method} ${meta.openapi.path}`).toBe(path);
      expect(route?.type, path).toBe(type);
      // Every GET reads; `callTRPCProcedure` refuses a call of another type than the procedure's.
      if (meta.openapi.method === 'GET') expect(type, path).toBe('query');
    }
  });
});

describe('route declarations', () => {
  it('declare every REST route through restRoute, with its headers and error statuses', () => {
    let declared = 0;
    for (const { path, meta } of restProcedures) {
      const { openapi, scope } = meta;
      expect(openapi.errorResponses, `${path}: declared without restRoute`).toBeDefined();
      expect(openapi.responseHeaders, path).toBeDefined();
      expect(scope, `${path}: declares no scope`).toBeDefined();
      const statuses = Object.keys(openapi.errorResponses ?? {}).map(Number);
      expect(statuses, path).toEqual(expect.arrayContaining([400, 401, 429, 500, 503]));
      // 403 is the answer to a missing scope: a route any key may call never gives it.
      if (scope === 'none') expect(statuses, path).not.toContain(403);
      else expect(statuses, path).toContain(403);
      if (openapi.method === 'POST' || openapi.method === 'PATCH') {
        expect(statuses, path).toEqual(expect.arrayContaining([409, 413, 415, 422]));
        expect(Object.keys(openapi.requestHeaders?.shape ?? {}), path).toContain('Idempotency-Key');
      }
      declared++;
    }
    expect(declared).toBe(routes.length);
  });
});
