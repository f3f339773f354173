import { ensureBuilt } from '@crm/web/build';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, browserUnavailable, signedInBrowser } from '../testing/browser.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

/**
 * Sandboxes in the web app, in Chromium (docs/web-app.md, "Sandboxes"): an owner makes one in
 * Settings → Sandboxes, sees its key once, opens it with one click (the banner says where they
 * are and leads back), a refused URL is shown at its field, and a delete removes it from the
 * list.
 */

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (sandboxes.test.ts) are skipped: ${unavailable}.`);

let app: TestApp;
let ws: TestWorkspace;
let browser: Browser;

beforeAll(async () => {
  if (unavailable) return;
  await ensureBuilt({ log: () => {} });
  app = await startTestApp({ worker: true, env: { WORKER_POLL_INTERVAL_MS: '100' } });
  ws = await app.createWorkspace({ name: 'Acme' });
  for (const title of ['Ada', 'Grace', 'Linus']) {
    const made = await app.api(ws.apiKey, 'POST', '/api/v1/records', { folderId: ws.folderId, title });
    expect(made.status).toBe(201);
  }
  // Production's subscription, which the sandbox copies and must not send to.
  const hook = await app.api(ws.apiKey, 'POST', '/api/v1/webhooks', {
    url: 'http://127.0.0.1:9/production',
    events: ['record.created'],
  });
  expect(hook.status).toBe(201);
  browser = await signedInBrowser(app, ws);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe.skipIf(unavailable)('Settings → Sandboxes in Chromium', () => {
  it('makes a sandbox, shows its key once, opens it with one click and comes back, and deletes it', async () => {
    const { page } = browser;
    await page.goto(`${app.url}/settings/sandboxes`);
    await page.getByRole('heading', { name: 'Sandboxes', exact: true }).waitFor();
    await page.getByText('This workspace has no sandbox.').waitFor();

    const form = page.getByRole('form', { name: 'Make a sandbox' });
    // A URL that is not http(s) is refused at its field, in words.
    await form.getByLabel('Name').fill('Try-outs');
    await form.getByLabel('URLs it may send to (one per line)').fill('ftp://files.example.com');
    await form.getByRole('button', { name: 'Make the sandbox' }).click();
    const urlError = form.locator('#sandbox-allow-error');
    await urlError.waitFor();
    expect(await urlError.textContent()).toBe('must be an http(s) URL');
    expect(await form.getByLabel('URLs it may send to (one per line)').getAttribute('aria-invalid')).toBe(
      'true',
    );

    await form.getByLabel('URLs it may send to (one per line)').fill('https://hooks.example.com/test');
    await form.getByLabel('Sample records').fill('2');
    await form.getByRole('button', { name: 'Make the sandbox' }).click();
    const key = page.getByTestId('secret');
    await key.waitFor();
    const sandboxKey = (await key.textContent()) ?? '';
    expect(sandboxKey).toMatch(/^crm_test_/);
    await page.getByText('Try-outs holds 1 folder, 0 automations, 1 webhook and 2 sample records.').waitFor();
    // No message of the refused attempt left on the status line.
    await browser.screenshot('sandboxes');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: 'Open Try-outs' }).click();
    const banner = page.getByRole('region', { name: 'Sandbox' });
    await banner.waitFor();
    await page.locator('.brand', { hasText: 'Try-outs' }).waitFor();
    // The records page of the sandbox: its two sample records.
    await page.getByRole('link', { name: 'Records' }).waitFor();
    // A record made in the sandbox: its delivery is captured, and shown so, with its body.
    const folders = await app.api(sandboxKey, 'GET', '/api/v1/folders');
    const made = await app.api(sandboxKey, 'POST', '/api/v1/records', {
      folderId: folders.body.data[0].id,
      title: 'Captured Co',
    });
    expect(made.status).toBe(201);
    const hooks = await app.api(sandboxKey, 'GET', '/api/v1/webhooks');
    await page.goto(`${app.url}/settings/webhooks/${hooks.body.data[0].id}`);
    const delivery = page.getByTestId('delivery').first();
    // The page reads the deliveries as they are: read it again until the worker has passed,
    // each time once the list has loaded (a busy machine takes longer than a fixed pause).
    const loaded = () => delivery.or(page.getByText('No deliveries yet.')).first().waitFor();
    await loaded();
    for (let tries = 0; (await delivery.locator('.badge.captured').count()) === 0 && tries < 50; tries++) {
      await page.waitForTimeout(200);
      await page.reload();
      await loaded();
    }
    await delivery.locator('.badge.captured', { hasText: 'CAPTURED' }).waitFor();
    await delivery.locator('summary').click();
    const body = delivery.getByRole('region', { name: 'Captured body' });
    await body.getByText(/"title": "Captured Co"/).waitFor();
    await browser.screenshot('sandbox-captured-delivery');
    const sessionThere = (await page.evaluate(async () => (await fetch('/auth/session')).json())) as {
      data: { workspace: unknown };
    };
    expect(sessionThere.data.workspace).toMatchObject({ name: 'Try-outs', sandboxOf: ws.workspaceId });

    await banner.getByRole('button', { name: 'Back to the workspace' }).click();
    await page.locator('.brand', { hasText: 'Acme' }).waitFor();
    expect(await page.getByRole('region', { name: 'Sandbox' }).count()).toBe(0);

    await page.goto(`${app.url}/settings/sandboxes`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete Try-outs' }).click();
    await page.getByText('This workspace has no sandbox.').waitFor();
    expect((await app.api(ws.apiKey, 'GET', '/api/v1/sandboxes')).body.data).toEqual([]);
  });
});
