import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { findUnstorable } from '@crm/api';
import { allScopes } from '@crm/constants';
import type { Database } from '@crm/db';
import { oauthAdapter, oauthSecret } from '@crm/domain';
import type { Adapter, Configuration, default as Provider } from 'oidc-provider';

/** Where the protocol's endpoints are, all under /oauth (docs/mcp.md, "OAuth"). */
const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/logout',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
} as const;

/**
 * The protected resources of an issuer (RFC 8707): the MCP endpoint and the REST API. The
 * gate compares a token's audience with them without loading the protocol library.
 */
export function resourcesOf(issuer: string): { mcp: string; api: string } {
  const base = issuer.replace(/\/$/, '');
  return { mcp: `${base}/mcp`, api: `${base}/api/v1` };
}

/** The consent page of the web app, where the authorization flow asks the user. */
export const CONSENT_PATH = '/oauth/consent';

/** Lifetimes, in seconds. */
const TTL = {
  AccessToken: 60 * 60,
  ClientCredentials: 60 * 60,
  AuthorizationCode: 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Grant: 365 * 24 * 60 * 60,
  Interaction: 10 * 60,
  Session: 24 * 60 * 60,
  IdToken: 60 * 60,
};

export interface OAuthServer {
  provider: Provider;
  /** The issuer: the service's base URL. */
  issuer: string;
  /** The MCP endpoint as a protected resource: `<base>/mcp`, the default one. */
  resource: string;
  /** The REST API (and /trpc) as a protected resource: `<base>/api/v1` (docs/apps.md). */
  apiResource: string;
  /** RFC 9728 metadata of the MCP resource. */
  resourceMetadataUrl: string;
}

/**
 * The OAuth 2.1 authorization server for agents and apps (docs/mcp.md, "OAuth"; docs/apps.md),
 * made with `oidc-provider`: authorization code with PKCE (required, S256), dynamic client
 * registration (RFC 7591, open, public clients), refresh tokens rotated on every use,
 * revocation, server metadata (RFC 8414). Access tokens are opaque, each for one resource
 * (RFC 8707): `<base>/mcp` (the default) or `<base>/api/v1`, which /api/v1 and /trpc accept;
 * they carry the service's scopes; the user consents on the web app's page, and the token's scopes are
 * held to the user's rights on every request. Its models live in `oauth_models`, its secrets
 * (cookie keys, the ID token signing key) sealed in `oauth_keys`, shared by every process.
 */
export async function createOAuthServer(
  db: Database,
  baseUrl: string,
  trustProxy: boolean,
): Promise<OAuthServer> {
  // Loaded on first use: a service no agent signs in to never loads the protocol library.
  const { default: OidcProvider, errors } = await import('oidc-provider');
  const issuer = baseUrl.replace(/\/$/, '');
  const { mcp: resource, api: apiResource } = resourcesOf(issuer);
  const cookieKey = await oauthSecret(db, 'cookie-key', () => randomBytes(32).toString('base64url'));
  const signingKey = JSON.parse(
    await oauthSecret(db, 'signing-key', () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      return JSON.stringify({
        ...privateKey.export({ format: 'jwk' }),
        kid: randomBytes(8).toString('hex'),
        use: 'sig',
        alg: 'RS256',
      });
    }),
  ) as Record<string, string>;
  const configuration: Configuration = {
    adapter: (model: string) => storableOnly(oauthAdapter(db, model), model, errors),
    clients: [],
    // The service's scopes are OAuth scopes too, so a client may register with them.
    scopes: ['openid', 'offline_access', ...allScopes],
    claims: { openid: ['sub'] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client revokes only its own tokens (RFC 7009, section 2.1).
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      // Apps an admin registers in settings get tokens for themselves (docs/apps.md).
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // An app of the workspace works on the REST API; an agent's default is /mcp.
        defaultResource: (_ctx, client) =>
          client?.grantTypeAllowed('client_credentials') ? apiResource : resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource && indicator !== apiResource)
            throw new errors.InvalidTarget(`tokens are issued for ${resource} or ${apiResource} only`);
          return {
            scope: allScopes.join(' '),
            audience: indicator,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    // A public client's page (the MCP Inspector) may call the token endpoint from its origin.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    pkce: { required: () => true },
    // Every client that may use refresh tokens gets one, rotated on each use.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    routes: OAUTH_ROUTES,
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    cookies: { keys: [cookieKey] },
    jwks: { keys: [signingKey] },
    ttl: TTL,
    renderError: (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  };
  const provider = new OidcProvider(issuer, configuration);
  provider.proxy = trustProxy;
  return {
    provider,
    issuer,
    resource,
    apiResource,
    resourceMetadataUrl: `${issuer}/.well-known/oauth-protected-resource`,
  };
}

type ProviderErrors = typeof import('oidc-provider')['errors'];

/**
 * The store of `model` refusing what it cannot hold: its rows are JSON in PostgreSQL, which
 * takes no NUL character and no lone UTF-16 surrogate. Such input is the caller's mistake, so
 * it is answered as the protocol answers a bad request (400 `invalid_client_metadata` for a
 * registration, `invalid_request` otherwise), naming what holds it, before anything is stored:
 * the REST API checks its input the same way (docs/api.md, "Limits of input").
 */
function storableOnly(adapter: Adapter, model: string, errors: ProviderErrors): Adapter {
  return {
    ...adapter,
    async upsert(id, payload, expiresIn) {
      // Client credentials are for the apps an admin registers in settings (register-app.ts),
      // which are bound to a workspace; a client registering itself cannot have them.
      if (model === 'Client' && [payload.grant_types ?? []].flat().includes('client_credentials')) {
        throw new errors.InvalidClientMetadata(
          'grant_types: client_credentials is for apps an admin registers in the settings area',
        );
      }
      const [problem] = [
        ...findUnstorable(payload),
        ...(model === 'Client' ? oversizedMetadata(payload) : []),
      ];
      if (problem) {
        const message = `${problem.path.replace(/^params\./, '')} ${problem.message}`;
        throw model === 'Client'
          ? new errors.InvalidClientMetadata(message)
          : new errors.InvalidRequest(message);
      }
      return adapter.upsert(id, payload, expiresIn);
    },
  };
}

/** Bounds of what a client registers (docs/mcp.md, "OAuth"): its name, each value, each list. */
const CLIENT_METADATA_LIMITS = { name: 200, value: 2_000, list: 20 };

/** The fields of a client's metadata beyond CLIENT_METADATA_LIMITS, each named with its limit. */
function oversizedMetadata(payload: Record<string, unknown>): { path: string; message: string }[] {
  const found: { path: string; message: string }[] = [];
  for (const [key, value] of Object.entries(payload)) {
    const values = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && value.length > CLIENT_METADATA_LIMITS.list) {
      found.push({ path: key, message: `holds more than ${CLIENT_METADATA_LIMITS.list} values` });
    }
    const longest = key === 'client_name' ? CLIENT_METADATA_LIMITS.name : CLIENT_METADATA_LIMITS.value;
    if (values.some((v) => typeof v === 'string' && v.length > longest)) {
      found.push({ path: key, message: `is longer than ${longest} characters` });
    }
  }
  return found;
}
