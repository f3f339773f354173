import { createApiKey, createWorkspace, setPassword } from '@crm/domain';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Agent,
  authorizationRequest,
  authorize,
  Browser,
  insecure,
  REDIRECT,
  refresh,
  registerClient,
  serverMetadata,
  startAppWithConsentPage,
} from '../testing/oauth-flow.ts';
import type { TestApp } from '../testing/test-app.ts';

/**
 * The whole OAuth 2.1 flow an agent that cannot hold a key goes through (docs/mcp.md, "OAuth"),
 * driven by `oauth4webapi` as the client and a small cookie jar as the user's browser:
 * discovery from the 401, registration (RFC 7591), authorization with PKCE, the consent page's
 * calls, the code exchange, MCP calls with the token, refresh with rotation, revocation.
 */
let app: TestApp;
let stopApp: () => Promise<void>;
let workspaceId: string;
let folderId: string;
let apiKey: string;
const email = `oauth.${Date.now()}@example.com`;
const password = 'a long enough password';

beforeAll(async () => {
  ({ app, stop: stopApp } = await startAppWithConsentPage());
  let userId: string;
  ({ workspaceId, userId } = await createWorkspace(app.service.db, {
    name: 'OAuth Co',
    owner: { email, name: 'Olive Owner' },
  }));
  apiKey = (await createApiKey(app.service.db, { workspaceId, userId, name: 'reader' })).secret;
  await setPassword(app.service.db, email, password);
});
afterAll(async () => {
  await stopApp?.();
});

/** What an agent finds from a 401 on /mcp: the resource's metadata, then the server's. */
async function discover(): Promise<Agent> {
  const res = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  expect(res.status).toBe(401);
  const challenge = res.headers.get('www-authenticate') ?? '';
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(metadataUrl).toBe(`${app.url}/.well-known/oauth-protected-resource`);
  const resourceMetadata = (await (await fetch(metadataUrl!)).json()) as {
    resource: string;
    authorization_servers: string[];
    scopes_supported: string[];
  };
  expect(resourceMetadata.resource).toBe(`${app.url}/mcp`);
  expect(resourceMetadata.scopes_supported).toEqual(
    expect.arrayContaining(['records:read', 'offline_access']),
  );
  const as = await serverMetadata(new URL(resourceMetadata.authorization_servers[0]!));
  expect(as.code_challenge_methods_supported).toEqual(['S256']);
  expect(as.registration_endpoint).toBe(`${app.url}/oauth/register`);
  return { as, client: await registerClient(as, 'Test Agent'), resource: resourceMetadata.resource };
}

async function mcpWith(token: string): Promise<Client> {
  const client = new Client({ name: 'Test Agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const mcpStatus = async (token: string) =>
  (
    await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
  ).status;

describe('OAuth 2.1 for agents', () => {
  it('registers, authorizes with PKCE and consent, calls MCP with the granted scopes only, refreshes, is revoked at once, and rotates refresh tokens with reuse detection', async () => {
    const agent = await discover();
    const browser = new Browser(app.url, { email, password });
    await browser.signIn();

    const { tokens, shown } = await authorize(
      agent,
      browser,
      'records:read records:write deals:read offline_access',
      ['records:read', 'records:write'],
    );
    expect(shown.scopes.map((s) => s.scope)).toEqual(['records:read', 'records:write', 'deals:read']);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.scope?.split(' ')).not.toContain('deals:read');

    // The token passes the same gate as a key: only the tools its scopes allow.
    const client = await mcpWith(tokens.access_token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_records',
      'get_record',
      'create_record',
      'update_record',
      'link_records',
      'list_related',
      'record_history',
    ]);
    folderId = await peopleFolder();
    const made = (await client.callTool({
      name: 'create_record',
      arguments: { folderId, title: 'Made by an agent' },
    })) as CallToolResult;
    const record = (made.structuredContent as { record: { id: string } }).record;
    await client.callTool({
      name: 'update_record',
      arguments: { id: record.id, title: 'Changed by an agent' },
    });
    const history = await fetchHistory(record.id);
    expect(history[0]).toMatchObject({
      actor: { type: 'mcp', id: agent.client.client_id, name: 'Olive Owner via Test Agent' },
      source: 'mcp',
    });
    await client.close();

    // Refresh: a new pair of tokens.
    const refreshed = await refresh(agent, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await mcpStatus(refreshed.access_token)).toBe(200);

    // Settings → Connected apps lists it; Revoke ends its access on the next request.
    const listed = await browser.trpc('GET', 'oauth.connectedApps');
    expect(listed.result.data.data).toEqual([
      expect.objectContaining({ clientName: 'Test Agent', scopes: ['records:read', 'records:write'] }),
    ]);
    const grantId = listed.result.data.data[0].grantId as string;
    const revoked = await browser.trpc('POST', 'oauth.revoke', { grantId });
    expect(revoked.result.data.data).toEqual({ grantId, revoked: true });
    expect(await mcpStatus(refreshed.access_token)).toBe(401);
    await expect(
      oauth.processRefreshTokenResponse(
        agent.as,
        agent.client,
        await oauth.refreshTokenGrantRequest(
          agent.as,
          agent.client,
          oauth.None(),
          refreshed.refresh_token!,
          insecure,
        ),
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // Rotation: a refresh token works once. Sent again, it is refused, and, as a stolen copy
    // may have been used, everything issued under its grant is revoked with it.
    const again = await authorize(agent, browser, 'records:read offline_access', ['records:read']);
    const rotated = await refresh(agent, again.tokens.refresh_token!);
    expect(await mcpStatus(rotated.access_token)).toBe(200);
    await expect(refresh(agent, again.tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await mcpStatus(rotated.access_token)).toBe(401);

    const log = await app.api(apiKey, 'GET', '/api/v1/audit-log');
    const actions = (log.body.data as { action: string }[])
      .map((e) => e.action)
      .filter((a) => a.startsWith('oauth_app.'));
    expect(actions).toEqual(['oauth_app.authorized', 'oauth_app.revoked', 'oauth_app.authorized']);
  });

  it('revokes a token at the revocation endpoint (RFC 7009)', async () => {
    const agent = await discover();
    const browser = new Browser(app.url, { email, password });
    await browser.signIn();
    const { tokens } = await authorize(agent, browser, 'records:read', ['records:read']);
    expect(await mcpStatus(tokens.access_token)).toBe(200);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(agent.as, agent.client, oauth.None(), tokens.access_token, insecure),
    );
    expect(await mcpStatus(tokens.access_token)).toBe(401);
  });

  it('refuses a consent without the signed-in user or without the CSRF token, and an authorization without PKCE', async () => {
    const agent = await discover();
    const stranger = new Browser(app.url, { email, password });
    const url = new URL(agent.as.authorization_endpoint!);
    const base = {
      client_id: agent.client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'records:read',
      resource: agent.resource,
    };
    url.search = new URLSearchParams(base).toString();
    const noPkce = await stranger.fetch(url.href);
    const refusedAt = new URL(noPkce.headers.get('location') ?? '', app.url);
    expect(refusedAt.searchParams.get('error')).toBe('invalid_request');
    expect(refusedAt.searchParams.get('error_description')).toMatch(/PKCE|code_challenge/);

    url.search = new URLSearchParams({
      ...base,
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    }).toString();
    const started = await stranger.fetch(url.href);
    const uid = new URL(started.headers.get('location')!, app.url).pathname.split('/').at(-1);
    expect((await stranger.fetch(`/oauth/consent/${uid}/details`)).status).toBe(401);
    await stranger.signIn();
    const noCsrf = await stranger.fetch(`/oauth/consent/${uid}/confirm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopes: ['records:read'] }),
    });
    expect(noCsrf.status).toBe(403);
    const denied = await stranger.fetch(`/oauth/consent/${uid}/deny`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': stranger.csrf },
      body: '{}',
    });
    const { redirectTo } = ((await denied.json()) as { data: { redirectTo: string } }).data;
    const back = await stranger.follow(redirectTo);
    expect(back.searchParams.get('error')).toBe('access_denied');
  });

  it('refuses registration metadata holding a NUL or a lone surrogate with 400 invalid_client_metadata, and stores nothing', async () => {
    const before = await clientCount();
    // The raw JSON text: `\u0000` and an unpaired `\ud800` as JSON escapes.
    for (const name of ['a\\u0000b', 'a\\ud800b']) {
      const res = await fetch(`${app.url}/oauth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: `{"client_name":"${name}","redirect_uris":["${REDIRECT}"],"token_endpoint_auth_method":"none"}`,
      });
      expect(res.status, name).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error).toBe('invalid_client_metadata');
      expect(body.error_description).toMatch(/client_name/);
    }
    expect(await clientCount()).toBe(before);
  });

  it('refuses registration metadata beyond its bounds (a name of 200 characters, values of 2,000, lists of 20) and an over-long request parameter, storing nothing', async () => {
    const before = await clientCount();
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `${REDIRECT}${i}`);
    // RFC 7591 names a bad redirect URI's error on its own: `invalid_redirect_uri`.
    const cases: [Record<string, unknown>, RegExp, string][] = [
      [
        { client_name: 'n'.repeat(201), redirect_uris: [REDIRECT] },
        /client_name is longer than 200/,
        'invalid_client_metadata',
      ],
      [
        { client_name: 'Many', redirect_uris: uris(21) },
        /redirect_uris holds more than 20/,
        'invalid_redirect_uri',
      ],
      [
        {
          client_name: 'Long',
          redirect_uris: [REDIRECT],
          client_uri: `https://example.com/${'q'.repeat(2_000)}`,
        },
        /client_uri is longer than 2000/,
        'invalid_client_metadata',
      ],
    ];
    for (const [metadata, message, error] of cases) {
      const res = await fetch(`${app.url}/oauth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...metadata, token_endpoint_auth_method: 'none' }),
      });
      expect(res.status, String(message)).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body, String(message)).toMatchObject({
        error,
        error_description: expect.stringMatching(message),
      });
    }
    // At the bounds, a registration is taken.
    const edge = await fetch(`${app.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'n'.repeat(200),
        redirect_uris: uris(20),
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(edge.status).toBe(201);
    expect(await clientCount()).toBe(before + 1);

    const { url } = await authorizationRequest(await discover(), 'records:read');
    url.searchParams.set('state', 's'.repeat(2_001));
    const res = await fetch(url);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_request',
      error_description: 'state is longer than 2000 characters',
    });
  });

  it('refuses an authorization request whose parameters hold a NUL with 400 invalid_request', async () => {
    const { url } = await authorizationRequest(await discover(), 'records:read');
    url.searchParams.set('state', 'a\u0000b');
    const member = new Browser(app.url, { email, password });
    await member.signIn();
    for (const browser of [new Browser(app.url, { email, password }), member]) {
      const res = await browser.fetch(url.href);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringMatching(/state/),
      });
    }
  });

  it('refuses a token on /mcp that is unknown, with the resource metadata to start from', async () => {
    const res = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer not-a-token',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource"`,
    );
  });
});

async function peopleFolder(): Promise<string> {
  return (await app.api(apiKey, 'GET', '/api/v1/folders')).body.data[0].id;
}

async function fetchHistory(recordId: string) {
  const res = await app.api(apiKey, 'GET', `/api/v1/records/${recordId}/history`);
  expect(res.status).toBe(200);
  return res.body.data as { actor: unknown; source: string }[];
}

/** Clients registered with the server, of every kind. */
async function clientCount(): Promise<number> {
  const found = await app.service.pool.query(
    "select count(*)::int as n from oauth_models where model = 'Client'",
  );
  return found.rows[0].n as number;
}
