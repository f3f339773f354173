import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import type { AppState } from './state.ts';

/** Where `pnpm --filter @crm/web build` writes the web app. */
export const DEFAULT_WEB_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../web/dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The page's own rules: scripts, styles and requests only from this origin (the API
 * reference renders the OpenAPI document itself, nothing is loaded from elsewhere), and no
 * framing (clickjacking on the settings pages).
 */
const HTML_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/**
 * Serves the built web app: its files, and its index.html for any other page a browser
 * navigates to (`/records/rec_…`, `/settings/keys`, `/docs`), so links and reloads work.
 * Requests that are not page navigations fall through to the JSON 404.
 */
export function webApp(webDir: string): Middleware<AppState> {
  const root = resolve(webDir);
  let index: Promise<string | null> | undefined;
  const readIndex = () => {
    index ??= readFile(join(root, 'index.html'), 'utf8').catch(() => null);
    return index;
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const file = await findFile(root, ctx.path);
    if (file) {
      ctx.state.route = '(web app)';
      ctx.type = TYPES[extname(file.path)] ?? 'application/octet-stream';
      ctx.length = file.size;
      // Vite names built assets by content hash: they never change under the same name.
      ctx.set(
        'Cache-Control',
        ctx.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      if (file.path.endsWith('.html')) ctx.set(HTML_HEADERS);
      ctx.body = ctx.method === 'HEAD' ? null : createReadStream(file.path);
      return;
    }
    if (!ctx.accepts('html') || ctx.accepts('json', 'html') === 'json' || extname(ctx.path)) return next();
    const html = await readIndex();
    ctx.state.route = '(web app)';
    ctx.set(HTML_HEADERS);
    if (html === null) {
      index = undefined;
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `The web app is not built: run \`pnpm --filter @crm/web build\` (npm start does this).\n`;
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };
}

async function findFile(root: string, path: string): Promise<{ path: string; size: number } | null> {
  if (path === '/' || path.includes('\0')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  const full = normalize(join(root, decoded));
  // `..` in the path must not leave the app's folder.
  if (!full.startsWith(root + sep)) return null;
  try {
    const info = await stat(full);
    return info.isFile() ? { path: full, size: info.size } : null;
  } catch {
    return null;
  }
}
