import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@koa/send';
import type { Middleware, ParameterizedContext } from 'koa';
import type { AppState } from './state.ts';

/** Where `pnpm --filter @crm/web build` writes the web app. */
export const DEFAULT_WEB_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../web/dist');

/**
 * The page's own rules: scripts, styles and requests only from this origin (nothing is
 * loaded from elsewhere), and no framing (clickjacking on the settings pages).
 */
export const HTML_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/** Vite names built assets by content hash: they never change under the same name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app with `@koa/send`: its files, and its index.html for any other page
 * a browser navigates to (`/records/rec_…`, `/settings/keys`), so links and reloads work.
 * Requests that are not page navigations, and paths that leave the app's folder, fall
 * through to the JSON 404.
 */
export function webApp(webDir: string): Middleware<AppState> {
  const root = resolve(webDir);
  const assets = join(root, 'assets') + sep;
  const options = {
    root,
    // No .br/.gz files next to the built ones: not looked for.
    brotli: false,
    gzip: false,
    setHeaders(res: ServerResponse, path: string) {
      if (path.endsWith('.html')) {
        for (const [name, value] of Object.entries(HTML_HEADERS)) res.setHeader(name, value);
      } else {
        res.setHeader('Cache-Control', path.startsWith(assets) ? IMMUTABLE : 'no-cache');
      }
    },
  };
  const sendFile = async (ctx: ParameterizedContext<AppState>, path: string): Promise<boolean> => {
    try {
      return (await send(ctx, path, options)) !== undefined;
    } catch (error) {
      // Not there (404), or outside the folder or not a path at all (403, 400).
      if (isHttpError(error)) return false;
      throw error;
    }
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path !== '/' && (await sendFile(ctx, ctx.path))) {
      ctx.state.route = '(web app)';
      return;
    }
    if (!ctx.accepts('html') || ctx.accepts('json', 'html') === 'json' || extname(ctx.path)) {
      return next();
    }
    ctx.state.route = '(web app)';
    if (await sendFile(ctx, 'index.html')) return;
    ctx.set(HTML_HEADERS);
    ctx.status = 503;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `The web app is not built: run \`pnpm --filter @crm/web build\` (npm start does this).\n`;
  };
}

function isHttpError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
