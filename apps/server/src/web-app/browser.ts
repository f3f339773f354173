import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's chromium; CI installs it (`apt-get install chromium`), nothing is downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Committed screenshots the README shows; every run of the browser tests renews them. */
export const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../docs/screenshots');

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Saves docs/screenshots/<name>.png of `page` (default the first tab). */
  screenshot(name: string, page?: Page, options?: { fullPage?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile in a temporary folder, reaching nothing but the
 * loopback test server: no sync, no component updates, no background requests.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does)`,
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'crm-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 860 },
    timeout: 30_000,
  });
  // Every wait of a test is bounded.
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    context,
    page,
    async screenshot(name, shot = page, options = {}) {
      await shot.screenshot({
        path: join(SCREENSHOTS, `${name}.png`),
        fullPage: options.fullPage ?? true,
        animations: 'disabled',
      });
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
