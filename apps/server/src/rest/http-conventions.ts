import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { missing } from '@crm/domain';
import cors from '@koa/cors';
import type { Middleware, ParameterizedContext } from 'koa';
import compress from 'koa-compress';
import { requestHeader } from '../http/headers.ts';
import type { AppState } from '../http/state.ts';

/**
 * The HTTP conventions of /api/v1 that generic clients expect (docs/api.md, "HTTP
 * conventions"): CORS for the configured origins, OPTIONS, compression, strong ETags and
 * conditional requests, and `Link` on paged lists. The REST layer (mount-rest.ts) applies
 * them from its route table, so every route gets them.
 */

/** Request headers a browser may send cross-origin. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'X-Request-Id',
].join(', ');

/** Response headers a browser script may read. */
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'ETag',
  'Location',
  'Link',
  'Idempotent-Replayed',
].join(', ');

/** Origins allowed to call /api/v1 from a browser: exact `scheme://host[:port]`, or `*` for any. */
export interface CorsPolicy {
  any: boolean;
  origins: ReadonlySet<string>;
}

/** Reads CORS_ORIGINS: a comma- or space-separated list of origins, or `*`; empty is off. */
export function readCorsOrigins(value: string | undefined): CorsPolicy {
  const listed = (value ?? '')
    .split(/[\s,]+/)
    .map((origin) => origin.trim().replace(/\/$/, ''))
    .filter((origin) => origin !== '');
  for (const origin of listed) {
    if (origin !== '*' && !/^https?:\/\/[^/?#\s]+$/i.test(origin)) {
      throw new Error(`CORS_ORIGINS: ${origin} is not an origin such as https://app.example.com`);
    }
  }
  return {
    any: listed.includes('*'),
    origins: new Set(listed.filter((origin) => origin !== '*').map((origin) => origin.toLowerCase())),
  };
}

/**
 * CORS for /api/v1, by `@koa/cors`: every answer varies by `Origin`; an actual request from an
 * allowed origin gets its origin back in `Access-Control-Allow-Origin` and may read
 * EXPOSED_HEADERS (errors included); a preflight from one learns the path's methods
 * (`optionsOf`), may send ALLOWED_HEADERS, and is cached 10 minutes. Credentials are never
 * allowed: /api/v1 takes Bearer keys only, and a browser must not send cookies along. Other
 * origins get no CORS headers.
 */
export interface RestCors {
  /** Runs `next` with the CORS headers of an actual request (any method but OPTIONS). */
  actual: Middleware<AppState>;
  /**
   * Answers OPTIONS on a path whose methods are `allow`: 204 with `Allow`, and for a preflight
   * from an allowed origin the CORS headers, `allow` as `Access-Control-Allow-Methods`. No key
   * is needed (a browser sends none with a preflight) and nothing is counted against a rate
   * limit.
   */
  answerOptions(ctx: ParameterizedContext<AppState>, allow: string[]): Promise<void>;
}

export function restCors(policy: CorsPolicy): RestCors {
  const origin = (ctx: { req: IncomingMessage }) => {
    const sent = requestHeader(ctx.req, 'origin');
    return sent && (policy.any || policy.origins.has(sent.toLowerCase())) ? sent : '';
  };
  const options = {
    origin,
    exposeHeaders: EXPOSED_HEADERS,
    allowHeaders: ALLOWED_HEADERS,
    maxAge: 600,
    credentials: false,
  };
  // @koa/cors takes the methods a preflight may use once per middleware: one middleware per
  // distinct method list of the route table (a handful), made when first asked for.
  const preflights = new Map<string, Middleware<AppState>>();
  const noContent = async (ctx: ParameterizedContext<AppState>) => {
    ctx.status = 204;
  };
  return {
    actual: cors(options),
    async answerOptions(ctx, allow) {
      const methods = allow.join(', ');
      let preflight = preflights.get(methods);
      if (!preflight) {
        preflight = cors({ ...options, allowMethods: methods });
        preflights.set(methods, preflight);
      }
      ctx.set('Allow', methods);
      await preflight(ctx, () => noContent(ctx));
    },
  };
}

/** The methods of a path as `Allow` lists them: HEAD wherever GET is, and OPTIONS. */
export function allowList(methods: string[]): string[] {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return order.filter((method) => all.has(method));
}

/** Bodies up to this size go out as they are: compressing them saves less than it costs. */
const COMPRESS_ABOVE = 1024;

/**
 * The encoding to answer with for an Accept-Encoding header: `br` or `gzip` when the client
 * accepts one (q > 0), brotli first at equal weight; null for none.
 */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

/** Brotli at quality 4, which compresses JSON about as well as gzip's best in a fraction of brotli's default time. */
function brotliParams(size: number | undefined): Record<number, number> {
  return {
    [zlib.BROTLI_PARAM_QUALITY]: 4,
    [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    ...(size !== undefined && Number.isInteger(size) ? { [zlib.BROTLI_PARAM_SIZE_HINT]: size } : {}),
  };
}

const GZIP_LEVEL = 6;

/** A body as it goes out: see encodeBody. */
export interface EncodedBody {
  body: string | Buffer;
  /** Its length in bytes, for Content-Length. */
  length: number;
  /** Whether the answer depends on Accept-Encoding (a body over COMPRESS_ABOVE): `Vary: Accept-Encoding`. */
  vary: boolean;
  /** The Content-Encoding it was compressed with, if any. */
  encoding: 'br' | 'gzip' | null;
}

/**
 * The body of a REST answer as it goes out: compressed when it is over COMPRESS_ABOVE bytes
 * and the client accepts br or gzip (brotliParams, gzip level 6), in one call on the event
 * loop. The caller sets the headers it names. A small body is left as it is, not copied.
 *
 * The REST layer's answers (a page of records, one resource: a few to some tens of kB) are
 * compressed here rather than streamed through `compressResponses`: streaming cost two to
 * three times the CPU per answer for bodies of 2 to 80 kB, and no less event-loop time
 * (docs/decisions/0008-http-libraries.md).
 */
export function encodeBody(acceptEncoding: string | undefined, body: string | Buffer): EncodedBody {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (length <= COMPRESS_ABOVE) return { body, length, vary: false, encoding: null };
  const encoding = chooseEncoding(acceptEncoding);
  if (!encoding) return { body, length, vary: true, encoding: null };
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(bytes, { params: brotliParams(bytes.length) })
      : gzipSync(bytes, { level: GZIP_LEVEL });
  return { body: compressed, length: compressed.length, vary: true, encoding };
}

/** A strong entity tag of a JSON body: the same bytes give the same tag, any change another. */
export function entityTag(body: string): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/** The entity tags an If-Match or If-None-Match header lists; `*` is kept as `*`. */
export function parseEntityTags(header: string): string[] {
  const tags: string[] = [];
  for (const match of header.matchAll(/(\*|(?:W\/)?"[^"]*")/g)) tags.push(match[1] ?? missing('match[1]'));
  return tags;
}

/** If-None-Match (weak comparison): true when the current tag is listed, or `*`. */
export function noneMatch(header: string, current: string): boolean {
  const weak = (tag: string) => tag.replace(/^W\//, '');
  return parseEntityTags(header).some((tag) => tag === '*' || weak(tag) === weak(current));
}

/** If-Match (strong comparison): true when the current tag is listed, or `*`. */
export function ifMatch(header: string, current: string): boolean {
  return parseEntityTags(header).some((tag) => tag === '*' || tag === current);
}

/**
 * The URL of a list's next page, `meta.nextUrl` and the target of `Link: <…>; rel="next"`:
 * the same URL with its cursor parameter (`cursor`, or `after` on the event feed) set to
 * `meta.nextCursor` (and `page`, which cannot go with a cursor, left out).
 */
export function nextPageUrl(
  base: string,
  path: string,
  querystring: string,
  cursorParam: 'cursor' | 'after',
  nextCursor: string,
): string {
  const params = new URLSearchParams(querystring);
  params.delete('page');
  params.set(cursorParam, nextCursor);
  return `${base}${path}?${params.toString()}`;
}

/**
 * Streams what Koa answers compressed (`koa-compress`), as encodeBody compresses the REST
 * layer's answers: a body over COMPRESS_ABOVE bytes, in br or gzip as the client accepts
 * (brotli first at equal weight, and for `*`), with `Vary: Accept-Encoding`. Under /api/v1 it
 * takes errors, idempotent replays and the OpenAPI document; at /docs, the API reference's
 * script. The compression runs on libuv's threads, off the event loop.
 */
export function compressResponses(): Middleware<AppState> {
  const streamed = compress({
    threshold: COMPRESS_ABOVE + 1,
    br: (_type, size) => ({ params: brotliParams(size) }),
    gzip: { level: GZIP_LEVEL },
    deflate: false,
    zstd: false,
    encodingPreference: ['br', 'gzip', 'identity'],
    wildcardAcceptEncoding: 'br',
  });
  return (ctx, next) => {
    // koa-compress 5.2.2 throws (a 500) when the client refuses identity and accepts none of
    // its codings (`identity;q=0`, `*;q=0`); such a client gets the body as it is, as from
    // encodeBody.
    if (chooseEncoding(requestHeader(ctx.req, 'accept-encoding')) === null) ctx.compress = false;
    return streamed(ctx, next);
  };
}
