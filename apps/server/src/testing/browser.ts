import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setPassword } from '@crm/domain';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import type { TestApp, TestWorkspace } from './test-app.ts';

/** Debian's chromium; CI installs it (`apt-get install chromium`), nothing is downloaded. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The screenshots the README shows, renewed by a run with UPDATE_SCREENSHOTS=1. */
const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../docs/screenshots');

/** Whether this run writes the README's screenshots; otherwise they go to a temporary folder. */
const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

/**
 * Why the browser tests cannot run here, or null when they can. On a developer's machine
 * without Chromium they are skipped with this reason; under CI (`CI` set), which installs
 * Chromium, they run and fail instead, so a broken install is never a silent skip.
 */
export function browserUnavailable(): string | null {
  if (existsSync(CHROMIUM) || process.env.CI) return null;
  return `no Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH) to run them`;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /**
   * Saves <name>.png of `page` (default the first tab): in docs/screenshots with
   * UPDATE_SCREENSHOTS=1. It first waits for the status line to clear, so that no message of
   * an earlier step is in the picture; `withStatus` takes the picture with the message the
   * step itself just showed.
   */
  screenshot(
    name: string,
    page?: Page,
    options?: { fullPage?: boolean; withStatus?: boolean },
  ): Promise<void>;
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
    // Numbers and amounts are formatted the same way on every machine.
    locale: 'en-US',
    timeout: 30_000,
  });
  // Every wait of a test is bounded.
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  // Taken on every run, so a page that cannot be drawn fails the test; kept only when asked.
  const shots = UPDATE_SCREENSHOTS ? SCREENSHOTS : await mkdtemp(join(tmpdir(), 'crm-screenshots-'));
  await mkdir(shots, { recursive: true });
  return {
    context,
    page,
    async screenshot(name, shot = page, options = {}) {
      if (!options.withStatus) await statusCleared(shot);
      await shot.screenshot({
        path: join(shots, `${name}.png`),
        fullPage: options.fullPage ?? true,
        animations: 'disabled',
      });
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
      if (!UPDATE_SCREENSHOTS) await rm(shots, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the app's status line (its live region, apps/web/src/lib/announcer.tsx) is
 * empty, so a screenshot shows no message an earlier step left there: a message stays on the
 * line for 8 seconds.
 */
async function statusCleared(page: Page): Promise<void> {
  await page.locator('.status-line p').waitFor({ state: 'detached', timeout: 10_000 });
}

/** Signs in on the sign-in page `page` shows, and waits for the first page of the app. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Records' }).waitFor();
}

/** The password the browser tests give a workspace's owner to sign in with. */
export const OWNER_PASSWORD = 'owner password 123';

/**
 * A browser signed in to the app as the owner of `ws` (given OWNER_PASSWORD), on the app's
 * first page: what most browser tests start from.
 */
export async function signedInBrowser(app: TestApp, ws: TestWorkspace): Promise<Browser> {
  const email = await setOwnerPassword(app, ws, OWNER_PASSWORD);
  const browser = await launchBrowser();
  await browser.page.goto(`${app.url}/`);
  await signIn(browser.page, email, OWNER_PASSWORD);
  return browser;
}

/** Gives the owner of `ws` a password to sign in with; answers the owner's email. */
export async function setOwnerPassword(app: TestApp, ws: TestWorkspace, password: string): Promise<string> {
  const rows = await app.service.pool.query<{ email: string }>('select email from users where id = $1', [
    ws.userId,
  ]);
  const email = rows.rows[0]!.email;
  await setPassword(app.service.db, email, password);
  return email;
}
