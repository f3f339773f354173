import type { ParameterizedContext } from 'koa';
import type { AppState } from '../http/state.ts';
import type { CorsPolicy } from '../rest/http-conventions.ts';

/** Which browser origins may call /mcp (docs/mcp.md, "Security"). */
export interface OriginPolicy {
  /** The origin of PUBLIC_URL, if it is set. */
  publicOrigin: string | null;
  /** CORS_ORIGINS, listed origins only: `*` does not open /mcp to every site. */
  cors: CorsPolicy;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why the request's Origin is refused, or null if it may call: against DNS rebinding, a page
 * from a site that merely resolves to this server must not reach it. A request without an
 * Origin (every non-browser client) passes; a browser's passes when it is PUBLIC_URL's origin,
 * one CORS_ORIGINS lists, or a page served from this machine (localhost, 127.0.0.1, [::1]).
 */
export function refusedOrigin(ctx: ParameterizedContext<AppState>, policy: OriginPolicy): string | null {
  const origin = ctx.get('Origin');
  if (!origin) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `Origin ${JSON.stringify(origin.slice(0, 200))} is not an origin`;
  }
  const normal = url.origin.toLowerCase();
  if (normal === policy.publicOrigin || policy.cors.origins.has(normal) || LOOPBACK.has(url.hostname))
    return null;
  return `Origin ${normal} may not call this endpoint; list it in CORS_ORIGINS to allow it`;
}

/** The policy for PUBLIC_URL and CORS_ORIGINS. */
export function originPolicy(publicUrl: string, cors: CorsPolicy): OriginPolicy {
  return { publicOrigin: publicUrl ? new URL(publicUrl).origin.toLowerCase() : null, cors };
}
