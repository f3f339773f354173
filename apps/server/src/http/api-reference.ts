import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { send } from '@koa/send';
import type { Middleware } from 'koa';
import type { AppState } from './state.ts';
import { HTML_HEADERS } from './web-app.ts';

/**
 * The API reference at /docs: Scalar's standalone bundle (`@scalar/api-reference`), sent
 * from the installed package, renders /api/v1/openapi.json in the browser. Nothing is loaded
 * from elsewhere, so it works on a machine without internet and needs no key
 * (docs/web-app.md, "API reference"; docs/decisions/0008-http-libraries.md).
 */
export const DOCS_PATH = '/docs';

const packageRoot = dirname(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')));
const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  version: string;
};

/** The bundle, under a name that changes with the package's version: cached for a year. */
export const SCRIPT_PATH = `${DOCS_PATH}/scalar-api-reference-${version}.js`;

/**
 * What the reference shows and does. No fonts, telemetry, AI agent, MCP generator, developer
 * toolbar or button opening Scalar's hosted client: each would reach Scalar's services, which
 * the page's policy forbids. Requests sent from its "Test Request" client go to this service
 * only.
 */
const CONFIGURATION = {
  url: '/api/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
};

/**
 * The `<style>` elements the bundle inserts, allowed by their sha256 (its stylesheet, its
 * theme, the toasts' styles, a reset, and an empty one filled after insertion) rather than
 * with 'unsafe-inline'. A new version of the package may change them:
 * `apps/server/src/web-app/api-reference.test.ts` then fails naming the hashes to put here.
 */
export const STYLE_HASHES = [
  'sha256-d7niGYA9R/xp7r1pyc/+3ntTepKCabnrqd2exao76s4=',
  'sha256-rO+6k1mDRASa9Q8IQu9I3bF+bjRdxDreAZCyGSaxzeI=',
  'sha256-ZW1GSuo0pKyEx5Ar7ZC5Dflb/mjatjeTW9aVx0iZAzE=',
  'sha256-DLlkYCuDYGe6ME23YkUFB7Tc36rGDeo4mVBFbZX3uaU=',
  'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
];

/**
 * The page's rules: its script and requests from this origin only, no framing. Style
 * elements by hash; style attributes are allowed ('unsafe-inline' in style-src-attr only):
 * the bundle sets some whose values it computes (a code block's line count), which no hash
 * can name, and a style attribute runs no script. No 'unsafe-eval': the bundle's validator
 * tries `new Function` once and works without it.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' ${STYLE_HASHES.map((hash) => `'${hash}'`).join(' ')}`,
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
</head>
<body>
<noscript>The API reference needs JavaScript. The OpenAPI document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript>
<script id="api-reference" type="application/json" data-configuration="${attribute(JSON.stringify(CONFIGURATION))}"></script>
<script src="${SCRIPT_PATH}"></script>
</body>
</html>
`;

const YEAR = 'public, max-age=31536000, immutable';

/** GET and HEAD of /docs (the page) and SCRIPT_PATH (the bundle); anything else goes on. */
export function apiReference(): Middleware<AppState> {
  const bundleDir = join(packageRoot, 'dist', 'browser');
  const options = {
    root: bundleDir,
    brotli: false,
    gzip: false,
    setHeaders(res: ServerResponse) {
      res.setHeader('Cache-Control', YEAR);
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === DOCS_PATH) {
      ctx.state.route = DOCS_PATH;
      ctx.set({ ...HTML_HEADERS, 'Content-Security-Policy': DOCS_CSP });
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
      return;
    }
    if (ctx.path === SCRIPT_PATH) {
      ctx.state.route = SCRIPT_PATH.replace(version, ':version');
      await send(ctx, 'standalone.js', options);
      return;
    }
    return next();
  };
}

function attribute(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}
