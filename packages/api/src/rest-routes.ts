import type { AnyRouter } from '@trpc/server';
import { forEachOpenApiProcedure } from 'trpc-to-openapi';
import { inputShapeOf } from './input-shape.ts';
import { type RouteKind, routeKind } from './rest-route.ts';
import type { ApiMeta } from './trpc.ts';

export interface RestRoute {
  method: string;
  /** The procedure serving it, as tRPC names it (`records.get`). */
  procedure: string;
  /** Path below /api/v1 with `{param}` placeholders. */
  path: string;
  pattern: RegExp;
  pathParams: string[];
  /** Where the `{param}` segments are: their index in the path split on `/`, and their name. */
  paramSegments: [number, string][];
  queryParams: string[];
  /** For a 201: where the new resource is read (see ApiMeta.location). */
  location?: string;
  /** Which conventions apply: ETag, Link, If-Match (rest-route.ts). */
  kind: RouteKind;
  /**
   * The query parameter that takes a list's `meta.nextCursor`, for its `Link: rel="next"`:
   * `cursor` on the lists, `after` on the event feed; none where the input takes neither.
   */
  cursorParam?: 'cursor' | 'after';
  /**
   * One character per segment, `0` literal and `1` parameter: of two templates that match a
   * path, the one whose string sorts first has a literal where the other has a parameter.
   */
  precedence: string;
}

/**
 * The REST routes declared by the procedures. The server uses them before the OpenAPI
 * adapter runs, to tell an unknown path (404) from a wrong method (405) and to know which
 * query parameters of a POST belong to its input.
 */
export function collectRestRoutes(router: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  forEachOpenApiProcedure(
    (router as { _def: { procedures: Record<string, never> } })._def.procedures,
    ({ meta, path: procedure, procedure: callable }) => {
      const m = meta as ApiMeta & { openapi: NonNullable<ApiMeta['openapi']> };
      const shape = inputShapeOf(callable);
      const cursorParam = 'cursor' in shape ? 'cursor' : 'after' in shape ? 'after' : undefined;
      const path = m.openapi.path.replace(/\/$/, '');
      const source = path
        .split('/')
        .map((segment) =>
          /^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/');
      routes.push({
        method: m.openapi.method,
        procedure,
        path,
        pattern: new RegExp(`^${source}/?$`, 'i'),
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((p) => p[1]!),
        paramSegments: path.split('/').flatMap((segment, index): [number, string][] => {
          const name = /^\{(\w+)\}$/.exec(segment)?.[1];
          return name ? [[index, name]] : [];
        }),
        queryParams: m.queryParams ?? [],
        ...(m.location ? { location: m.location } : {}),
        kind: routeKind(m.openapi.method, path, m.resource),
        ...(cursorParam ? { cursorParam } : {}),
        precedence: path
          .split('/')
          .map((segment) => (/^\{.+\}$/.test(segment) ? '1' : '0'))
          .join(''),
      });
    },
  );
  return routes;
}

export type RouteMatch =
  | { kind: 'found'; route: RestRoute }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

/**
 * The route of a request. A literal segment outranks a parameter, so `/records/batch` is the
 * batch route and never the record `{id}` "batch": only the matching templates of the highest
 * precedence are considered, and a method they lack is a 405 even where a template with a
 * parameter there has it. (The REST adapter, which dispatches on its own, takes the first
 * matching procedure of the router: routers list literal routes first, and a test checks
 * that both always agree.)
 */
export function matchRestRoute(routes: RestRoute[], method: string, path: string): RouteMatch {
  let best: RestRoute[] = [];
  let precedence = '';
  for (const route of candidatesFor(routes, path)) {
    if (!route.pattern.test(path)) continue;
    if (best.length === 0 || route.precedence < precedence) {
      best = [route];
      precedence = route.precedence;
    } else if (route.precedence === precedence) {
      best.push(route);
    }
  }
  if (best.length === 0) return { kind: 'none' };
  const route = best.find((r) => r.method === method);
  if (route) return { kind: 'found', route };
  return { kind: 'wrong-method', allow: [...new Set(best.map((r) => r.method))] };
}

/** Routes by their first segment (lower-cased, as matching ignores case); `null` for those starting with a parameter. */
const firstSegmentIndexes = new WeakMap<RestRoute[], Map<string | null, RestRoute[]>>();

/**
 * The routes that may match `path`: those whose first segment is the path's, and those
 * starting with a parameter. The index is built once per list of routes, which is not
 * changed after collectRestRoutes made it.
 */
function candidatesFor(routes: RestRoute[], path: string): RestRoute[] {
  let index = firstSegmentIndexes.get(routes);
  if (!index) {
    index = new Map();
    const wild = routes.filter((r) => r.precedence.charAt(1) === '1');
    index.set(null, wild);
    for (const route of routes) {
      if (route.precedence.charAt(1) === '1') continue;
      const key = firstSegment(route.path);
      let list = index.get(key);
      if (!list) {
        list = [...wild];
        index.set(key, list);
      }
      list.push(route);
    }
    firstSegmentIndexes.set(routes, index);
  }
  return index.get(firstSegment(path)) ?? index.get(null)!;
}

/** `records` of `/records/rec_1`, lower-cased; '' for `/`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * The GET of a single resource whose representation a PATCH or DELETE changes, for
 * `If-Match` (docs/api.md, "HTTP conventions"): the GET of the same path, or else of the
 * nearest enclosing resource (a folder's field is part of the folder:
 * `/folders/{id}/fields/{key}` is judged by `GET /folders/{id}`). Undefined for a batch, which
 * changes many resources.
 */
export function conditionalTwin(routes: RestRoute[], route: RestRoute): RestRoute | undefined {
  const segments = route.path.split('/');
  for (let end = segments.length; end > 1; end--) {
    const path = segments.slice(0, end).join('/');
    const twin = routes.find((r) => r.method === 'GET' && r.path === path && path.endsWith('}'));
    if (twin) return twin;
  }
  return undefined;
}

/**
 * The route's `{param}` segments in a path it matched, as sent (not percent-decoded): what the
 * REST adapter hands the procedure as its path input.
 */
export function rawPathParams(route: RestRoute, path: string): Record<string, string> {
  const params: Record<string, string> = {};
  if (route.paramSegments.length === 0) return params;
  const given = path.split('/');
  for (const [index, name] of route.paramSegments) params[name] = given[index] ?? '';
  return params;
}

/** The values of a route's `{param}` segments in a request path. */
export function pathParamsOf(route: RestRoute, path: string): Record<string, string> {
  const template = route.path.split('/');
  const given = path.replace(/\/$/, '').split('/');
  const params: Record<string, string> = {};
  template.forEach((segment, i) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (name && given[i] !== undefined) params[name] = decodeSegment(given[i]!);
  });
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A location template filled from the fields of the new resource (`{id}` ← `data.id`). */
export function fillLocation(template: string, data: Record<string, unknown>): string | undefined {
  let missing = false;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = data[name];
    if (typeof value !== 'string' || value === '') missing = true;
    return encodeURIComponent(String(value));
  });
  return missing ? undefined : path;
}
