import { createHash } from 'node:crypto';
import { get } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CSP, SCRIPT_PATH, STYLE_HASHES } from '../http/api-reference.ts';
import { type Browser, browserUnavailable, launchBrowser } from '../testing/browser.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * The API reference at /docs (docs/web-app.md, "API reference"): Scalar's bundle, sent by the
 * server, renders the operations of /api/v1/openapi.json in Chromium with nothing reached but
 * the server, under the page's Content-Security-Policy.
 */

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (api-reference.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let browser: Browser;

interface Operation {
  summary?: string;
  tags?: string[];
}

beforeAll(async () => {
  if (unavailable) return;
  app = await startTestApp();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/**
 * Keeps `page` offline: any request to another host is aborted and listed. Lists too the
 * Content-Security-Policy violations the page reports.
 */
async function watch(page: Page): Promise<{ elsewhere: string[]; violations: () => Promise<string[]> }> {
  const elsewhere: string[] = [];
  const local = new URL(app.url).host;
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === local || url.protocol === 'data:') return route.continue();
    elsewhere.push(url.href);
    return route.abort();
  });
  // Scripts run in the page are given as text: this package is typed without the DOM.
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
      });`,
  });
  return { elsewhere, violations: () => page.evaluate<string[]>('window.cspViolations') };
}

describe.skipIf(unavailable)('the API reference in Chromium', () => {
  it('sends the page with its policy and the bundle compressed, cached for a year', async () => {
    const page = await fetch(`${app.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).toContain(`<script src="${SCRIPT_PATH}"></script>`);
    expect(html).not.toMatch(/https?:\/\//);

    const plain = await fetch(`${app.url}${SCRIPT_PATH}`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    const source = Buffer.from(await plain.arrayBuffer());
    expect(source.length).toBeGreaterThan(1_000_000);
    // node:http, which leaves the body as sent (fetch would decode it).
    const res = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      get(`${app.url}${SCRIPT_PATH}`, { headers: { 'Accept-Encoding': 'br' } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ encoding: answer.headers['content-encoding'], body: Buffer.concat(chunks) }),
        );
      }).on('error', reject);
    });
    expect(res.encoding).toBe('br');
    expect(res.body.length).toBeLessThan(source.length / 3);
    expect(brotliDecompressSync(res.body).equals(source)).toBe(true);
    expect((await fetch(`${app.url}/docs`, { method: 'POST' })).status).toBe(404);
  });

  it('renders the operations of the OpenAPI document offline, within the page policy', async () => {
    const doc = (await app.api(null, 'GET', '/api/v1/openapi.json')).body as {
      info: { title: string };
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        path,
        method,
        summary: op.summary ?? '',
        tag: op.tags?.[0] ?? '',
      })),
    );
    const records = operations.filter((op) => op.tag === 'Records');
    expect(records.length).toBeGreaterThan(5);

    const page = await browser.context.newPage();
    try {
      const watched = await watch(page);
      await page.goto(`${app.url}/docs`);
      await page.getByRole('heading', { name: doc.info.title }).waitFor();
      // Every tag is in the sidebar; the Records group opened lists each of its operations.
      for (const tag of new Set(operations.map((op) => op.tag))) {
        await page
          .getByRole('button', { name: `Open Group - ${tag}` })
          .or(page.getByRole('button', { name: `Close Group - ${tag}` }))
          .first()
          .waitFor();
      }
      await page.getByRole('button', { name: 'Open Group - Records' }).click();
      // A sidebar entry is "<summary> HTTP Method: <method>", linking to its section.
      for (const op of records) {
        const link = page.getByRole('link', {
          name: new RegExp(`^${escapeRegExp(op.summary)} HTTP Method:`),
        });
        expect(await link.getAttribute('href')).toBe(`#tag/records/${op.method.toUpperCase()}${op.path}`);
      }
      // An operation's page shows its path and parameters.
      await page.getByRole('link', { name: /^Get a record HTTP Method:/ }).click();
      await page.getByRole('heading', { name: 'Get a record', exact: true }).waitFor();
      await page.getByText('/records/{id}').first().waitFor();
      await browser.screenshot('api-reference', page, { fullPage: false });
      // The search finds an operation.
      await page.getByRole('button', { name: /^Open Search/ }).click();
      await page
        .getByRole('dialog')
        .getByRole('combobox')
        .or(page.getByRole('dialog').getByRole('searchbox'))
        .first()
        .fill('timeline');
      await page.getByRole('dialog').getByText("A record's timeline").first().waitFor();
      await page.keyboard.press('Escape');
      // The client that sends a request from the page opens too.
      await page
        .getByRole('button', { name: /Test Request/ })
        .first()
        .click();
      await page.getByRole('button', { name: /Send/ }).first().waitFor();

      expect(watched.elsewhere).toEqual([]);
      // Every style element the bundle inserted is one the policy names; the one refusal is
      // the bundle's validator trying `new Function` (it works without).
      const styles = await page.evaluate<string[]>(
        "[...document.querySelectorAll('style')].map((style) => style.textContent ?? '')",
      );
      const hashes = styles.map((text) => `sha256-${createHash('sha256').update(text).digest('base64')}`);
      const unnamed = hashes.filter((hash) => !STYLE_HASHES.includes(hash));
      expect(unnamed, 'style hashes to add to STYLE_HASHES in apps/server/src/http/api-reference.ts').toEqual(
        [],
      );
      expect(await watched.violations()).toEqual(['script-src eval']);
    } finally {
      await page.close();
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
