import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureBuilt } from '@crm/web/build';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  browserUnavailable,
  launchBrowser,
  OWNER_PASSWORD,
  setOwnerPassword,
} from '../testing/browser.ts';
import { clientCredentialsRequest } from '../testing/oauth-flow.ts';
import { startTestApp, type TestApp, type TestWorkspace } from '../testing/test-app.ts';

const unavailable = browserUnavailable();
if (unavailable) console.warn(`The browser tests (oauth-consent.test.ts) are skipped: ${unavailable}.`);
const insecure = { [oauth.allowInsecureRequests]: true };

let app: TestApp;
let ws: TestWorkspace;
let email: string;
let browser: Browser;
/** The agent's loopback redirect URI, which only says it got there. */
let callback: Server;
let redirectUri: string;

beforeAll(async () => {
  if (unavailable) return;
  await ensureBuilt({ log: () => {} });
  app = await startTestApp();
  ws = await app.createWorkspace({ name: 'Northwind' });
  email = await setOwnerPassword(app, ws, OWNER_PASSWORD);
  callback = createServer((_req, res) => res.end('back at the agent'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (callback ? callback.close(resolve) : resolve(undefined)));
  await app?.stop();
});

describe.skipIf(unavailable)('OAuth consent and connected apps in Chromium', () => {
  it('signs in on the consent page, lists the scopes asked for, grants the ones left ticked, and revokes the app from the settings', async () => {
    const issuer = new URL(app.url);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    const client = (await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: 'Claude Desktop', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' },
        insecure,
      ),
    )) as oauth.Client;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'records:read records:write deals:read tasks:write offline_access',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    const { page } = browser;
    await page.goto(url.href);
    // Not signed in: the sign-in page first, then back to the request.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Allow Claude Desktop to use Northwind?' }).waitFor();
    const boxes = page.getByRole('checkbox');
    await expect.poll(() => boxes.count()).toBe(4);
    for (const scope of ['records:read', 'records:write', 'deals:read', 'tasks:write']) {
      await expect.poll(() => page.getByText(scope, { exact: true }).count()).toBe(1);
    }
    await page.getByRole('checkbox', { name: /tasks:write/ }).uncheck();
    await browser.screenshot('oauth-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((to) => to.href.startsWith(redirectUri));

    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        redirectUri,
        verifier,
        insecure,
      ),
    );
    expect(tokens.scope?.split(' ').sort()).toEqual(
      expect.arrayContaining(['deals:read', 'records:read', 'records:write']),
    );
    expect(tokens.scope).not.toContain('tasks:write');
    const ping = () =>
      fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${tokens.access_token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }).then((res) => res.status);
    expect(await ping()).toBe(200);

    await page.goto(`${app.url}/settings/connected-apps`);
    await page.getByRole('heading', { name: 'Connected apps' }).waitFor();
    await page.getByRole('cell', { name: 'Claude Desktop', exact: true }).waitFor();
    await expect
      .poll(() => page.getByRole('cell', { name: 'deals:read, records:read, records:write' }).count())
      .toBe(1);
    await browser.screenshot('connected-apps');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Claude Desktop' }).click();
    await page.getByText('No app is connected.').waitFor();
    expect(await ping()).toBe(401);
  });

  it('registers an app of the workspace in Settings → Apps, shows its secret once, lets it get a token, and removes it', async () => {
    const { page } = browser;
    await page.goto(`${app.url}/settings/apps`);
    const signIn = page.getByRole('heading', { name: 'Sign in' });
    const apps = page.getByRole('heading', { name: 'Apps', exact: true });
    await Promise.race([signIn.waitFor(), apps.waitFor()]);
    if (await signIn.isVisible()) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(OWNER_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await apps.waitFor();
    await page.getByText('No app is registered.').waitFor();
    const form = page.getByRole('form', { name: 'Register an app' });
    await form.getByLabel('Name').fill('Nightly sync');
    await form.getByRole('checkbox', { name: 'records:write' }).check();
    await form.getByRole('button', { name: 'Register' }).click();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    const clientId = (await page.getByTestId('client-id').textContent()) ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(40);
    await browser.screenshot('apps');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('cell', { name: 'records:read, records:write' }).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);

    const token = await clientCredentialsRequest(`${app.url}/oauth/token`, clientId, secret, 'records:read');
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const list = () =>
      fetch(`${app.url}/api/v1/records?pageSize=1`, {
        headers: { Authorization: `Bearer ${accessToken}` },
      }).then((res) => res.status);
    expect(await list()).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove Nightly sync' }).click();
    await page.getByText('No app is registered.').waitFor();
    expect(await list()).toBe(401);
  });
});
