import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * An OAuth client and a user's browser against a running service, for the tests of the OAuth
 * flows (docs/mcp.md, "OAuth"; docs/apps.md): `oauth4webapi` plays the app, `Browser` the
 * user who signs in and consents on the web app's page.
 */
export const insecure = { [oauth.allowInsecureRequests]: true };
export const REDIRECT = 'http://127.0.0.1:9/callback';

/** The user's browser: cookies by name, each sent to the paths it was set for. */
export class Browser {
  cookies = new Map<string, { value: string; path: string }>();
  csrf = '';

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: { email: string; password: string },
  ) {}

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, this.baseUrl);
    const cookie = [...this.cookies]
      .filter(([, c]) => target.pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    const headers = new Headers(init.headers);
    if (cookie) headers.set('Cookie', cookie);
    const res = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      const path =
        attributes
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith('path='))
          ?.slice(5) ?? '/';
      const expired = attributes.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), { value: value.join('='), path });
    }
    return res;
  }

  async signIn() {
    const res = await this.fetch('/auth/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(this.credentials),
    });
    expect(res.status).toBe(200);
    this.csrf = ((await res.json()) as { data: { csrfToken: string } }).data.csrfToken;
  }

  /** Follows redirects on this server until one leaves it, giving that address. */
  async follow(location: string): Promise<URL> {
    const origin = new URL(this.baseUrl).origin;
    let next = new URL(location, this.baseUrl);
    for (let hops = 0; hops < 10 && next.origin === origin; hops++) {
      const res = await this.fetch(next.href);
      const to = res.headers.get('location');
      if (!to) return next;
      next = new URL(to, next);
    }
    return next;
  }

  /** A call of the web app's tRPC procedures with this session and its CSRF token. */
  async trpc(method: 'GET' | 'POST', procedure: string, input?: unknown) {
    const path =
      method === 'GET'
        ? `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`
        : `/trpc/${procedure}`;
    const res = await this.fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': this.csrf },
      ...(method === 'POST' ? { body: JSON.stringify(input ?? {}) } : {}),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read the procedures' JSON answers freely
    const body = (await res.json()) as { result: { data: { data: any } } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  }
}

export interface Agent {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  /** The resource its tokens are asked for (RFC 8707). */
  resource: string;
}

/** The authorization server's metadata (RFC 8414), from the issuer the resource metadata names. */
export async function serverMetadata(issuer: URL): Promise<oauth.AuthorizationServer> {
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
}

/** A public client registered dynamically (RFC 7591) as `name`, redirecting to REDIRECT. */
export async function registerClient(as: oauth.AuthorizationServer, name: string): Promise<oauth.Client> {
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: name,
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      insecure,
    ),
  );
  expect(registered.client_id).toEqual(expect.any(String));
  return registered as oauth.Client;
}

/** The authorization request of `agent` for `scope`, with PKCE: its URL, state and verifier. */
export async function authorizationRequest(agent: Agent, scope: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(agent.as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: agent.client.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope,
    state,
    resource: agent.resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    prompt: 'consent',
  }).toString();
  return { url, state, verifier };
}

/**
 * Authorization through the consent page, where the signed-in user allows `allow`: the
 * callback's parameters (the code), the verifier that goes with them, and what the page showed.
 */
export async function consent(agent: Agent, browser: Browser, scope: string, allow: string[]) {
  const { url, state, verifier } = await authorizationRequest(agent, scope);
  const started = await browser.fetch(url.href);
  expect(started.status).toBe(303);
  const consentPage = new URL(started.headers.get('location')!, url);
  const uid = /^\/oauth\/consent\/([^/]+)$/.exec(consentPage.pathname)?.[1];
  expect(uid).toEqual(expect.any(String));
  // The page is the web app's; its calls need the signed-in user.
  const page = await browser.fetch(consentPage.href, { headers: { Accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  const details = await browser.fetch(`/oauth/consent/${uid}/details`);
  expect(details.status).toBe(200);
  const shown = (
    (await details.json()) as {
      data: { client: { name: string }; scopes: { scope: string; allowed: boolean }[]; resources: string[] };
    }
  ).data;
  const confirmed = await browser.fetch(`/oauth/consent/${uid}/confirm`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': browser.csrf },
    body: JSON.stringify({ scopes: allow }),
  });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  const { redirectTo } = ((await confirmed.json()) as { data: { redirectTo: string } }).data;
  const callback = await browser.follow(redirectTo);
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  const params = oauth.validateAuthResponse(agent.as, agent.client, callback, state);
  return { params, verifier, shown };
}

/** The code exchanged for tokens at the token endpoint, as `redirectUri` and `verifier` say. */
export async function exchangeCode(
  agent: Agent,
  params: URLSearchParams,
  verifier: string,
  redirectUri = REDIRECT,
) {
  return oauth.processAuthorizationCodeResponse(
    agent.as,
    agent.client,
    await oauth.authorizationCodeGrantRequest(
      agent.as,
      agent.client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      { additionalParameters: { resource: agent.resource }, ...insecure },
    ),
  );
}

/** Authorization with PKCE through the consent page, giving the token response. */
export async function authorize(agent: Agent, browser: Browser, scope: string, allow: string[]) {
  const { params, verifier, shown } = await consent(agent, browser, scope, allow);
  return { tokens: await exchangeCode(agent, params, verifier), shown };
}

export async function refresh(agent: Agent, refreshToken: string) {
  return oauth.processRefreshTokenResponse(
    agent.as,
    agent.client,
    await oauth.refreshTokenGrantRequest(agent.as, agent.client, oauth.None(), refreshToken, {
      additionalParameters: { resource: agent.resource },
      ...insecure,
    }),
  );
}

/**
 * The app with a stand-in for the web app's index.html, so that the consent page answers
 * without a build of the web app (web-app/oauth-consent.test.ts drives the real page).
 */
export async function startAppWithConsentPage(): Promise<{ app: TestApp; stop: () => Promise<void> }> {
  const webDir = await mkdtemp(join(tmpdir(), 'crm-web-'));
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>CRM</title><div id="root"></div>');
  const app = await startTestApp({ env: { WEB_DIR: webDir } });
  return {
    app,
    stop: async () => {
      await app.stop();
      await rm(webDir, { recursive: true, force: true });
    },
  };
}

/** A client credentials token request (docs/apps.md), as curl sends it: HTTP Basic, a form body. */
export function clientCredentialsRequest(
  tokenEndpoint: string,
  clientId: string,
  secret: string,
  scope: string,
): Promise<Response> {
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString(
    'base64',
  );
  return fetch(tokenEndpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${basic}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
}
