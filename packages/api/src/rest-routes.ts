import { missing as absent } from '@crm/domain';
import type { AnyRouter, TRPCProcedureType } from '@trpc/server';
import { inputShapeOf } from './input-shape.ts';
import { proceduresOf } from './internals/trpc.ts';
import { type QueryDecoder, queryDecoderOf } from './rest-input.ts';
import { type RouteKind, routeKind } from './rest-route.ts';
import type { ApiMeta } from './trpc.ts';

export interface RestRoute {
  method: string;
  /** The procedure serving it, as tRPC names it (`records.get`). */
  procedure: string;
  /** Its type, which `callTRPCProcedure` checks: `query` for every GET, else `mutation`. */
  type: TRPCProcedureType;
  /** How its input is read from a query string (rest-input.ts). */
  query: QueryDecoder;
  /** Path below /api/v1 with `{param}` placeholders. */
  path: string;
  pathParams: string[];
  /** Where the `{param}` segments are: their index in the path split on `/`, and their name. */
  paramSegments: [number, string][];
  queryParams: string[];
  /** Input keys a DELETE also takes from a JSON body (see ApiMeta.bodyParams). */
  bodyParams: string[];
  /** For a 201: where the new resource is read (see ApiMeta.location). */
  location?: string;
  /** Which conventions apply: ETag, Link, If-Match (rest-route.ts). */
  kind: RouteKind;
  /**
   * The query parameter that takes a list's `meta.nextCursor`, for its `Link: rel="next"`:
   * `cursor` on the lists, `after` on the event feed; none where the input takes neither.
   */
  cursorParam?: 'cursor' | 'after';
  /** A route whose body or answer is a file (ApiMeta.file). */
  file?: { accepts?: string[]; answers?: string[] };
}

/**
 * The REST routes declared by the procedures (`meta.openapi`). The server matches requests
 * against them (a 404 from a 405, the query parameters of a POST), reads each route's input
 * and calls its procedure (apps/server/src/rest/mount-rest.ts).
 */
export function collectRestRoutes(router: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const { path: procedure, type, meta, input } of proceduresOf(router)) {
    const m = meta as ApiMeta | undefined;
    if (!m?.openapi || m.openapi.enabled === false) continue;
    const shape = inputShapeOf(input);
    const cursorParam = 'cursor' in shape ? 'cursor' : 'after' in shape ? 'after' : undefined;
    const path = m.openapi.path.replace(/\/$/, '');
    const paramSegments = path.split('/').flatMap((segment, index): [number, string][] => {
      const name = paramName(segment);
      return name ? [[index, name]] : [];
    });
    routes.push({
      method: m.openapi.method,
      procedure,
      type,
      query: queryDecoderOf(input),
      path,
      pathParams: paramSegments.map(([, name]) => name),
      paramSegments,
      queryParams: m.queryParams ?? [],
      bodyParams: m.bodyParams ?? [],
      ...(m.location ? { location: m.location } : {}),
      kind: routeKind(m.openapi.method, path, m.resource),
      ...(cursorParam ? { cursorParam } : {}),
      ...(m.file ? { file: m.file } : {}),
    });
  }
  return routes;
}

/** The name of a template's `{param}` segment; undefined for a literal one. */
function paramName(segment: string): string | undefined {
  return /^\{(\w+)\}$/.exec(segment)?.[1];
}

export type RouteMatch =
  | { kind: 'found'; route: RestRoute }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

/**
 * The route of a request. A literal segment outranks a parameter, so `/records/batch` is the
 * batch route and never the record `{id}` "batch": only the matching templates of the highest
 * precedence are considered, and a method they lack is a 405 even where a template with a
 * parameter there has it. Literal segments match whatever their case, a parameter matches
 * any non-empty segment, and one trailing slash is allowed, whatever order the routers
 * declare their procedures in.
 */
export function matchRestRoute(routes: RestRoute[], method: string, path: string): RouteMatch {
  const segments = path.split('/');
  // A trailing slash: `/records/` is `/records`.
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  const node = findNode(treeOf(routes), segments, 1);
  if (!node) return { kind: 'none' };
  for (const route of node.routes) {
    if (route.method === method) return { kind: 'found', route };
  }
  return { kind: 'wrong-method', allow: [...new Set(node.routes.map((r) => r.method))] };
}

/**
 * The route table as a tree of path segments: a node's literal children by their lower-cased
 * segment and one child for a parameter, and the routes (one per method) whose template ends
 * there. Searching it literal child first finds the matching template of the highest
 * precedence, in as many steps as the path has segments.
 */
interface RouteNode {
  literals: Map<string, RouteNode>;
  param: RouteNode | undefined;
  routes: RestRoute[];
}

/** The tree of each route table, built once: collectRestRoutes' lists are not changed after. */
const trees = new WeakMap<RestRoute[], RouteNode>();

function treeOf(routes: RestRoute[]): RouteNode {
  const built = trees.get(routes);
  if (built) return built;
  const newNode = (): RouteNode => ({ literals: new Map(), param: undefined, routes: [] });
  const made = newNode();
  for (const route of routes) {
    let node = made;
    for (const segment of route.path === '' ? [] : route.path.slice(1).split('/')) {
      if (paramName(segment)) {
        node.param ??= newNode();
        node = node.param;
      } else {
        const key = segment.toLowerCase();
        let child = node.literals.get(key);
        if (!child) {
          child = newNode();
          node.literals.set(key, child);
        }
        node = child;
      }
    }
    node.routes.push(route);
  }
  trees.set(routes, made);
  return made;
}

function findNode(node: RouteNode, segments: string[], index: number): RouteNode | undefined {
  if (index === segments.length) return node.routes.length > 0 ? node : undefined;
  const segment = segments[index] ?? absent('segments[index]');
  const literal = node.literals.get(segment) ?? node.literals.get(segment.toLowerCase());
  if (literal) {
    const found = findNode(literal, segments, index + 1);
    if (found) return found;
  }
  return node.param && segment !== '' ? findNode(node.param, segments, index + 1) : undefined;
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
 * The route's `{param}` segments in a path it matched, as sent (not percent-decoded): the
 * path input the procedure is called with, as /api/v1 has always handed it over.
 */
export function rawPathParams(route: RestRoute, path: string): Record<string, string> {
  const params: Record<string, string> = {};
  if (route.paramSegments.length === 0) return params;
  const given = path.split('/');
  for (const [index, name] of route.paramSegments) params[name] = given[index] ?? '';
  return params;
}

/** The values of a route's `{param}` segments in a request path, percent-decoded. */
export function pathParamsOf(route: RestRoute, path: string): Record<string, string> {
  const params = rawPathParams(route, path);
  for (const name of route.pathParams) params[name] = decodeSegment(params[name] ?? absent('params[name]'));
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
