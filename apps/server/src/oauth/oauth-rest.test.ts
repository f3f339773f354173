import { addMember, createApiKey, createWorkspace, setPassword } from '@crm/domain';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { startService } from '../service.ts';
import {
  type Agent,
  authorizationRequest,
  authorize,
  Browser,
  clientCredentialsRequest,
  consent,
  exchangeCode,
  REDIRECT,
  refresh,
  registerClient,
  serverMetadata,
  startAppWithConsentPage,
} from '../testing/oauth-flow.ts';
import type { TestApp } from '../testing/test-app.ts';

/**
 * Third-party apps on the REST API and /trpc with OAuth (docs/apps.md): an app registers,
 * asks for the resource `<base>/api/v1`, the user consents, and its token passes the same gate
 * as a key, with the scopes granted within the user's rights. And the attacks the flow must
 * refuse, each writing nothing: a code used twice, a redirect URI one character off, a missing
 * or wrong PKCE verifier, a token of one workspace used on another, a token issued for another
 * resource, scopes beyond the user's role.
 */
let app: TestApp;
let stopApp: () => Promise<void>;
let ownerKey: string;
let otherKey: string;
let folderId: string;
const stamp = Date.now();
const owner = { email: `apps.owner.${stamp}@example.com`, password: 'a long enough password' };
const member = { email: `apps.member.${stamp}@example.com`, password: 'another long password' };

beforeAll(async () => {
  ({ app, stop: stopApp } = await startAppWithConsentPage());
  const db = app.service.db;
  const ws = await createWorkspace(db, {
    name: 'Apps Co',
    owner: { email: owner.email, name: 'Opal Owner' },
  });
  await setPassword(db, owner.email, owner.password);
  ownerKey = (await createApiKey(db, { workspaceId: ws.workspaceId, userId: ws.userId, name: 'admin' }))
    .secret;
  // A member of Apps Co only: made with a workspace of their own, which they then leave.
  const own = await createWorkspace(db, {
    name: 'Left Co',
    owner: { email: member.email, name: 'Milo Member' },
  });
  await db.transaction((tx) => addMember(tx, ws.workspaceId, own.userId, 'MEMBER'));
  await app.service.pool.query('delete from memberships where workspace_id = $1 and user_id = $2', [
    own.workspaceId,
    own.userId,
  ]);
  await setPassword(db, member.email, member.password);
  const other = await createWorkspace(db, {
    name: 'Other Co',
    owner: { email: `apps.other.${stamp}@example.com`, name: 'Olga Other' },
  });
  otherKey = (await createApiKey(db, { workspaceId: other.workspaceId, userId: other.userId, name: 'o' }))
    .secret;
  folderId = (await app.api(ownerKey, 'GET', '/api/v1/folders')).body.data[0].id;
});
afterAll(async () => {
  await stopApp?.();
});

/** An app as an integrator writes one: discovery from the REST API's resource metadata, then registration. */
async function registerApp(name = 'Test App'): Promise<Agent> {
  const res = await fetch(`${app.url}/.well-known/oauth-protected-resource/api/v1`);
  expect(res.status).toBe(200);
  const metadata = (await res.json()) as { resource: string; authorization_servers: string[] };
  expect(metadata.resource).toBe(`${app.url}/api/v1`);
  const as = await serverMetadata(new URL(metadata.authorization_servers[0]!));
  return { as, client: await registerClient(as, name), resource: metadata.resource };
}

const signedIn = async (who: { email: string; password: string }) => {
  const browser = new Browser(app.url, who);
  await browser.signIn();
  return browser;
};

const rest = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const accessTokens = async () =>
  (await app.service.pool.query("select count(*)::int as n from oauth_models where model = 'AccessToken'"))
    .rows[0].n as number;

describe('OAuth apps on the REST API', () => {
  it('acts for the user on /api/v1 and /trpc with the scopes granted, names the app in history, refreshes, and ends at revocation', async () => {
    const agent = await registerApp();
    const browser = await signedIn(owner);
    const { tokens, shown } = await authorize(
      agent,
      browser,
      'records:read records:write deals:read offline_access',
      ['records:read', 'records:write'],
    );
    expect(shown.resources).toEqual([`${app.url}/api/v1`]);
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope?.split(' ').sort()).toEqual(['records:read', 'records:write']);
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const made = await rest(tokens.access_token, 'POST', '/records', { folderId, title: 'Made by an app' });
    expect(made.status).toBe(201);
    const record = ((await made.json()) as { data: { id: string } }).data;
    expect((await rest(tokens.access_token, 'GET', `/records/${record.id}`)).status).toBe(200);
    const changed = await rest(tokens.access_token, 'PATCH', `/records/${record.id}`, {
      title: 'Changed by an app',
    });
    expect(changed.status).toBe(200);
    // Not granted: deals.
    const deals = await rest(tokens.access_token, 'GET', '/deals');
    expect(deals.status).toBe(403);

    // The same token on /trpc, as an internal app would call the procedures.
    const viaTrpc = await fetch(`${app.url}/trpc/records.update`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: record.id, title: 'Renamed by an app' }),
    });
    expect(viaTrpc.status, await viaTrpc.clone().text()).toBe(200);

    const history = (await app.api(ownerKey, 'GET', `/api/v1/records/${record.id}/history`)).body.data as {
      actor: unknown;
      source: string;
    }[];
    const madeBy = { type: 'app', id: agent.client.client_id, name: 'Opal Owner via Test App' };
    expect(history.map((h) => [h.actor, h.source])).toEqual([
      [madeBy, 'trpc'],
      [madeBy, 'rest'],
    ]);

    // Refresh gives a new pair, for the same resource.
    const refreshed = await refresh(agent, tokens.refresh_token!);
    expect((await rest(refreshed.access_token, 'GET', '/records?pageSize=1')).status).toBe(200);

    // Settings → Connected apps: revoking ends the app's access on the next request.
    const listed = await browser.trpc('GET', 'oauth.connectedApps');
    const grantId = (listed.result.data.data as { clientName: string; grantId: string }[]).find(
      (a) => a.clientName === 'Test App',
    )?.grantId;
    expect(grantId).toEqual(expect.any(String));
    await browser.trpc('POST', 'oauth.revoke', { grantId });
    const after = await rest(refreshed.access_token, 'GET', '/records?pageSize=1');
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/api/v1"`,
    );
    await expect(refresh(agent, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('ends a revoked app’s access at once in every process of a fleet', async () => {
    // A second API process on the same database and public URL, as behind a load balancer.
    const second = await startService(
      readEnv({
        DATABASE_URL: app.service.connectionString,
        HOST: '127.0.0.1',
        PORT: '0',
        ROLE: 'api',
        OPS_PORT: '0',
        PUBLIC_URL: app.url,
        LOG_LEVEL: 'silent',
        ...(process.env.SECRETS_KEY ? { SECRETS_KEY: process.env.SECRETS_KEY } : {}),
      }),
      createLogger('silent'),
    );
    try {
      const agent = await registerApp();
      const browser = await signedIn(owner);
      const { tokens } = await authorize(agent, browser, 'records:read', ['records:read']);
      const there = () =>
        fetch(`${second.url}/api/v1/records?pageSize=1`, {
          headers: { Authorization: `Bearer ${tokens.access_token}` },
        }).then((res) => res.status);
      expect(await there()).toBe(200);
      const listed = await browser.trpc('GET', 'oauth.connectedApps');
      const { grantId } = (listed.result.data.data as { grantId: string; clientId: string }[]).find(
        (a) => a.clientId === agent.client.client_id,
      )!;
      await browser.trpc('POST', 'oauth.revoke', { grantId });
      expect(await there()).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it('refuses a token issued for /mcp on the REST API, and one issued for the REST API on /mcp', async () => {
    const browser = await signedIn(owner);
    const forApi = await registerApp();
    const forMcp = { ...forApi, resource: `${app.url}/mcp` };
    const apiTokens = (await authorize(forApi, browser, 'records:read', ['records:read'])).tokens;
    const mcpTokens = (await authorize(forMcp, browser, 'records:read', ['records:read'])).tokens;

    const refused = await rest(mcpTokens.access_token, 'GET', '/records');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/issued for/);
    const trpc = await fetch(`${app.url}/trpc/records.list`, {
      headers: { Authorization: `Bearer ${mcpTokens.access_token}` },
    });
    expect(trpc.status).toBe(401);
    const mcp = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${apiTokens.access_token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(mcp.status).toBe(401);
    // Neither is a resource of another server.
    const { url } = await authorizationRequest(
      { ...forApi, resource: 'https://elsewhere.example/api' },
      'records:read',
    );
    const elsewhere = await browser.fetch(url.href);
    const back = new URL(elsewhere.headers.get('location') ?? '', app.url);
    expect(back.searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses a code used twice, and revokes what the first use gave', async () => {
    const agent = await registerApp();
    const browser = await signedIn(owner);
    const { params, verifier } = await consent(agent, browser, 'records:read', ['records:read']);
    const first = await exchangeCode(agent, params, verifier);
    expect((await rest(first.access_token, 'GET', '/records?pageSize=1')).status).toBe(200);
    const before = await accessTokens();
    await expect(exchangeCode(agent, params, verifier)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await accessTokens()).toBeLessThanOrEqual(before);
    expect((await rest(first.access_token, 'GET', '/records?pageSize=1')).status).toBe(401);
  });

  it('refuses a redirect URI one character off, at the authorization and at the token endpoint', async () => {
    const agent = await registerApp();
    const browser = await signedIn(owner);
    const { url } = await authorizationRequest(agent, 'records:read');
    url.searchParams.set('redirect_uri', `${REDIRECT}x`);
    const res = await browser.fetch(url.href);
    // Never sent to an address the app did not register.
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(((await res.json()) as { error: string }).error).toBe('invalid_redirect_uri');

    const { params, verifier } = await consent(agent, browser, 'records:read', ['records:read']);
    const before = await accessTokens();
    await expect(exchangeCode(agent, params, verifier, `${REDIRECT}/`)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await accessTokens()).toBe(before);
  });

  it('refuses a missing or wrong PKCE verifier', async () => {
    const agent = await registerApp();
    const browser = await signedIn(owner);
    for (const verifier of [oauth.generateRandomCodeVerifier(), undefined]) {
      const given = await consent(agent, browser, 'records:read', ['records:read']);
      const before = await accessTokens();
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code: given.params.get('code')!,
        redirect_uri: REDIRECT,
        client_id: agent.client.client_id,
        resource: agent.resource,
        ...(verifier ? { code_verifier: verifier } : {}),
      });
      const res = await fetch(agent.as.token_endpoint!, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status, String(verifier)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/invalid_grant|invalid_request/);
      expect(await accessTokens()).toBe(before);
    }
  });

  it('keeps a token to its own workspace: another workspace’s records are not found, and stay unchanged', async () => {
    const agent = await registerApp();
    const browser = await signedIn(owner);
    const { tokens } = await authorize(agent, browser, 'records:read records:write records:delete', [
      'records:read',
      'records:write',
      'records:delete',
    ]);
    const otherFolder = (await app.api(otherKey, 'GET', '/api/v1/folders')).body.data[0].id as string;
    const theirs = (
      await app.api(otherKey, 'POST', '/api/v1/records', { folderId: otherFolder, title: 'Theirs' })
    ).body.data as { id: string; updatedAt: string };
    expect((await rest(tokens.access_token, 'GET', `/records/${theirs.id}`)).status).toBe(404);
    expect(
      (await rest(tokens.access_token, 'PATCH', `/records/${theirs.id}`, { title: 'Mine now' })).status,
    ).toBe(404);
    expect((await rest(tokens.access_token, 'DELETE', `/records/${theirs.id}`)).status).toBe(404);
    const list = await rest(tokens.access_token, 'GET', `/records?folderId=${otherFolder}`);
    expect(list.status).toBe(404);
    const still = await app.api(otherKey, 'GET', `/api/v1/records/${theirs.id}`);
    expect(still.body.data).toMatchObject({ title: 'Theirs', updatedAt: theirs.updatedAt });
  });

  it('holds a member’s app to the member’s rights, whatever it asks for', async () => {
    const agent = await registerApp();
    const browser = await signedIn(member);
    const asked = 'records:read webhooks:read webhooks:write';
    const { params, verifier, shown } = await consent(agent, browser, asked, [
      'records:read',
      'webhooks:read',
      'webhooks:write',
    ]);
    expect(shown.scopes).toEqual([
      { scope: 'records:read', allowed: true },
      { scope: 'webhooks:read', allowed: false },
      { scope: 'webhooks:write', allowed: false },
    ]);
    const tokens = await exchangeCode(agent, params, verifier);
    expect(tokens.scope).toBe('records:read');
    expect((await rest(tokens.access_token, 'GET', '/webhooks')).status).toBe(403);
    const hooks = await app.api(ownerKey, 'GET', '/api/v1/webhooks');
    const made = await rest(tokens.access_token, 'POST', '/webhooks', {
      url: 'https://example.com/hook',
      events: ['record.created'],
    });
    expect(made.status).toBe(403);
    expect((await app.api(ownerKey, 'GET', '/api/v1/webhooks')).body.data).toEqual(hooks.body.data);

    // Only what the role does not allow: no consent can be given.
    const { url } = await authorizationRequest(agent, 'webhooks:write');
    const started = await browser.fetch(url.href);
    const uid = new URL(started.headers.get('location')!, app.url).pathname.split('/').at(-1);
    const confirmed = await browser.fetch(`/oauth/consent/${uid}/confirm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': browser.csrf },
      body: JSON.stringify({ scopes: ['webhooks:write'] }),
    });
    expect(confirmed.status).toBe(400);
  });

  it('answers an unknown token with 401 and where to get one, and an unknown key with 401', async () => {
    const res = await rest('not-a-token', 'GET', '/records');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource/api/v1"`,
    );
    const keyLike = await rest('crm_live_not_a_key', 'GET', '/records');
    expect(keyLike.status).toBe(401);
  });
});

describe('Apps of the workspace (client credentials)', () => {
  const tokenFor = async (as: oauth.AuthorizationServer, clientId: string, secret: string, scope: string) =>
    oauth.processClientCredentialsResponse(
      as,
      { client_id: clientId },
      await oauth.clientCredentialsGrantRequest(
        as,
        { client_id: clientId },
        oauth.ClientSecretBasic(secret),
        new URLSearchParams({ scope }),
        { [oauth.allowInsecureRequests]: true },
      ),
    );

  /** A token request as curl would send it, for the refusals: its status and `error`. */
  const refusal = async (as: oauth.AuthorizationServer, clientId: string, secret: string, scope: string) => {
    const res = await clientCredentialsRequest(as.token_endpoint!, clientId, secret, scope);
    return { status: res.status, error: ((await res.json()) as { error: string }).error };
  };

  it('registers an app in settings with its secret shown once, gives it tokens for the REST API, names it in history, and ends it at removal', async () => {
    const browser = await signedIn(owner);
    const registered = (
      await browser.trpc('POST', 'oauth.registerApp', {
        name: 'Nightly sync',
        scopes: ['records:write', 'records:read'],
      })
    ).result.data.data as { clientId: string; clientSecret: string; scopes: string[] };
    expect(registered.scopes).toEqual(['records:read', 'records:write']);
    expect(registered.clientSecret.length).toBeGreaterThanOrEqual(40);
    const listed = (await browser.trpc('GET', 'oauth.apps')).result.data.data as Record<string, unknown>[];
    expect(listed).toEqual([
      expect.objectContaining({
        clientId: registered.clientId,
        name: 'Nightly sync',
        createdBy: expect.anything(),
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(registered.clientSecret);
    const stored = await app.service.pool.query(
      "select payload::text as p from oauth_models where model = 'Client' and payload->>'client_id' = $1",
      [registered.clientId],
    );
    expect(stored.rows[0].p).not.toContain(registered.clientSecret);

    const { as } = await registerApp('Unused');
    const tokens = await tokenFor(
      as,
      registered.clientId,
      registered.clientSecret,
      'records:read records:write',
    );
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeUndefined();
    const made = await rest(tokens.access_token, 'POST', '/records', { folderId, title: 'Synced' });
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { data: { id: string } }).data.id;
    expect(
      (await rest(tokens.access_token, 'PATCH', `/records/${id}`, { title: 'Synced again' })).status,
    ).toBe(200);
    const history = (await app.api(ownerKey, 'GET', `/api/v1/records/${id}/history`)).body.data as {
      actor: unknown;
      source: string;
    }[];
    expect(history[0]).toMatchObject({
      actor: { type: 'app', id: registered.clientId, name: 'Nightly sync' },
      source: 'rest',
    });
    expect((await rest(tokens.access_token, 'GET', '/deals')).status).toBe(403);

    // Neither more than it was registered with, nor with a wrong secret.
    expect(await refusal(as, registered.clientId, registered.clientSecret, 'deals:read')).toEqual({
      status: 400,
      error: 'invalid_scope',
    });
    expect(await refusal(as, registered.clientId, `${registered.clientSecret}x`, 'records:read')).toEqual({
      status: 401,
      error: 'invalid_client',
    });

    await browser.trpc('POST', 'oauth.removeApp', { clientId: registered.clientId });
    expect((await rest(tokens.access_token, 'GET', '/records?pageSize=1')).status).toBe(401);
    expect(await refusal(as, registered.clientId, registered.clientSecret, 'records:read')).toEqual({
      status: 401,
      error: 'invalid_client',
    });
    const log = await app.api(ownerKey, 'GET', '/api/v1/audit-log');
    const actions = (log.body.data as { action: string; target: { id: string } }[])
      .filter((e) => e.target?.id === registered.clientId)
      .map((e) => e.action);
    expect(actions).toEqual(['oauth_app.removed', 'oauth_app.registered']);
  });

  it('lets only an owner or admin register, and no client register itself for client credentials', async () => {
    const browser = await signedIn(member);
    const res = await browser.fetch('/trpc/oauth.registerApp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': browser.csrf },
      body: JSON.stringify({ name: 'Mine', scopes: ['records:read'] }),
    });
    expect(res.status).toBe(403);
    const self = await fetch(`${app.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Self-made',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    });
    expect(self.status).toBe(400);
    expect(((await self.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });
});
