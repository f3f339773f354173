import type { IncomingMessage } from 'node:http';
import { findUnstorable, RequestError } from '@crm/api';
import { allScopes } from '@crm/constants';
import type { Database } from '@crm/db';
import {
  type Actor,
  accountIdOf,
  audit,
  authenticateSession,
  DomainError,
  findOAuthAccess,
  isScope,
  KEY_PREFIX,
  rightsOf,
  unauthorizedToken,
} from '@crm/domain';
import type { Middleware, ParameterizedContext } from 'koa';
import { z } from 'zod';
import {
  bearerToken,
  CSRF_HEADER,
  countWorkspaceRequest,
  type GateDeps,
  SESSION_COOKIE,
  sameToken,
} from '../http/gate.ts';
import { requestHeader } from '../http/headers.ts';
import { sendError } from '../http/send-error.ts';
import type { AppState } from '../http/state.ts';
import { readJsonBody } from '../rest/read-body.ts';
import { CONSENT_PATH, createOAuthServer, type OAuthServer, resourcesOf } from './provider.ts';

type Ctx = ParameterizedContext<AppState>;

const PROTECTED_RESOURCE_METADATA = '/.well-known/oauth-protected-resource';

/**
 * The protected resources' metadata (RFC 9728) by path: the MCP endpoint's at the bare path
 * (where MCP clients look first) and at its own, the REST API's at `…/api/v1`.
 */
const RESOURCE_METADATA: Record<string, 'mcp' | 'api' | undefined> = {
  [PROTECTED_RESOURCE_METADATA]: 'mcp',
  [`${PROTECTED_RESOURCE_METADATA}/mcp`]: 'mcp',
  [`${PROTECTED_RESOURCE_METADATA}/api/v1`]: 'api',
};

/**
 * The authorization server, made on first use: its issuer is the service's base URL, which
 * without PUBLIC_URL is known only once the server listens.
 */
export class OAuth {
  #server: Promise<OAuthServer> | undefined;

  constructor(
    private readonly db: Database,
    private readonly baseUrl: () => string,
    private readonly trustProxy: boolean,
  ) {}

  server(): Promise<OAuthServer> {
    if (!this.#server) {
      this.#server = createOAuthServer(this.db, this.baseUrl(), this.trustProxy);
      // A failed start (the database away) is tried again on the next request.
      this.#server.catch(() => {
        this.#server = undefined;
      });
    }
    return this.#server;
  }

  /** The resources tokens are issued for, from the base URL: no need of the protocol library. */
  resources(): { mcp: string; api: string } {
    return resourcesOf(this.baseUrl());
  }

  /** Where a 401 points the client (RFC 9728): the metadata of /mcp, or of the REST API. */
  resourceMetadataUrl(surface: 'mcp' | 'api' = 'mcp'): string {
    const base = `${this.baseUrl().replace(/\/$/, '')}${PROTECTED_RESOURCE_METADATA}`;
    return surface === 'api' ? `${base}/api/v1` : base;
  }
}

/**
 * The OAuth surface (docs/mcp.md, "OAuth"): the protected resource's metadata (RFC 9728), the
 * authorization server's metadata (RFC 8414, and its OpenID form), the protocol's endpoints
 * under /oauth (registration, authorization, token, revocation), and the JSON behind the web
 * app's consent page. Everything else passes on; the consent page itself is the web app's.
 */
export function oauthEndpoints(oauth: OAuth, db: Database): Middleware<AppState> {
  return async (ctx, next) => {
    const path = ctx.path;
    const described = RESOURCE_METADATA[path];
    if (described) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      const server = await oauth.server();
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = {
        resource: described === 'api' ? server.apiResource : server.resource,
        authorization_servers: [server.issuer],
        scopes_supported: [...allScopes, 'offline_access'],
        bearer_methods_supported: ['header'],
        resource_name: described === 'api' ? 'CRM workspace (REST API)' : 'CRM workspace (MCP)',
        resource_documentation: `${server.issuer}/docs`,
      };
      return;
    }
    const consent = /^\/oauth\/consent\/([A-Za-z0-9_-]{1,100})\/(details|confirm|deny)$/.exec(path);
    if (consent) return consentApi(ctx, oauth, db, consent[1] as string, consent[2] as Step);
    if (path.startsWith(`${CONSENT_PATH}/`)) return next();
    const wellKnown =
      path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration';
    if (!wellKnown && !path.startsWith('/oauth/')) return next();
    const refused = unstorableParameter(ctx.querystring);
    if (refused) {
      // Answered here, not sent back to the client's redirect URI: a value that cannot be
      // stored cannot be carried through the flow either (docs/mcp.md, "OAuth").
      ctx.status = 400;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error: 'invalid_request', error_description: refused };
      return;
    }
    const { provider } = await oauth.server();
    logServerErrors(provider);
    requestLogs.set(ctx.req, ctx.state.log);
    // RFC 8414's address of the same metadata the provider serves in its OpenID form.
    if (path === '/.well-known/oauth-authorization-server') ctx.req.url = '/.well-known/openid-configuration';
    ctx.state.route = wellKnown ? path : '/oauth/(protocol)';
    ctx.respond = false;
    await provider.callback()(ctx.req, ctx.res);
  };
}

/**
 * Why a protocol request's query string cannot be taken (a parameter holding a NUL or a lone
 * surrogate, which no row of the OAuth store can hold, or longer than PARAMETER_LIMIT), or null.
 */
function unstorableParameter(querystring: string): string | null {
  if (querystring === '') return null;
  const params = Object.fromEntries(new URLSearchParams(querystring));
  const [problem] = findUnstorable(params);
  if (problem) return `${problem.path} ${problem.message}`;
  const long = Object.entries(params).find(([, value]) => value.length > PARAMETER_LIMIT);
  return long ? `${long[0]} is longer than ${PARAMETER_LIMIT} characters` : null;
}

/** The longest value of a protocol request's parameter (a state, a scope, a redirect URI). */
const PARAMETER_LIMIT = 2_000;

/** The log of each request handed to the protocol library, with its request id. */
const requestLogs = new WeakMap<IncomingMessage, AppState['log']>();
const logging = new WeakSet<OAuthServer['provider']>();

/**
 * Logs every failure of the protocol library's own endpoints (a 5xx, `server_error`) with its
 * cause and the request's id, as every other surface logs its 5xx (docs/operations.md,
 * "Health and logs"); the client gets the protocol's `server_error` without the cause.
 */
function logServerErrors(provider: OAuthServer['provider']): void {
  if (logging.has(provider)) return;
  logging.add(provider);
  provider.on('server_error', (ctx: { req: IncomingMessage }, error: unknown) => {
    requestLogs.get(ctx.req)?.error({ err: error, code: 'INTERNAL' }, 'request failed');
  });
}

type Step = 'details' | 'confirm' | 'deny';

const confirmInput = z.strictObject({ scopes: z.array(z.string().max(100)).max(100) });

/**
 * The consent page's calls, under the interaction's own path so its cookie comes along:
 * `details` (what the app asks for), `confirm` (grant the scopes chosen) and `deny`. The user
 * is the web app's signed-in user (session cookie, and X-CSRF-Token on the writes); the
 * answer of `confirm` and `deny` is where the browser goes next.
 */
async function consentApi(ctx: Ctx, oauth: OAuth, db: Database, uid: string, step: Step): Promise<void> {
  ctx.state.route = `${CONSENT_PATH}/{uid}/${step}`;
  ctx.set('Cache-Control', 'no-store');
  try {
    if ((step === 'details') !== (ctx.method === 'GET')) {
      ctx.set('Allow', step === 'details' ? 'GET' : 'POST');
      throw new RequestError('METHOD_NOT_ALLOWED', `Use ${step === 'details' ? 'GET' : 'POST'} here`);
    }
    const session = await authenticateSession(db, ctx.cookies.get(SESSION_COOKIE));
    if (!session) throw new DomainError('UNAUTHORIZED', 'Sign in to continue');
    if (step !== 'details' && !sameToken(ctx.get(CSRF_HEADER), session.csrfToken)) {
      throw new DomainError('FORBIDDEN', `Missing or wrong ${CSRF_HEADER} header`);
    }
    const { provider, resource, apiResource } = await oauth.server();
    const interaction = await provider.interactionDetails(ctx.req, ctx.res).catch(() => null);
    if (!interaction || interaction.uid !== uid) {
      throw new DomainError(
        'NOT_FOUND',
        'This authorization request has ended or expired; start again from the app',
      );
    }
    const actor = session.actor;
    const params = interaction.params as {
      client_id?: string;
      scope?: string;
      redirect_uri?: string;
      resource?: string | string[];
    };
    // The resources asked for (RFC 8707), each of which the server issues tokens for (the
    // provider refused any other before the consent); none asked: the default, /mcp.
    const askedFor = [params.resource ?? []].flat().filter((r) => r === resource || r === apiResource);
    const targets = askedFor.length > 0 ? askedFor : [resource];
    const client = await provider.Client.find(String(params.client_id ?? ''));
    if (!client) throw new DomainError('NOT_FOUND', 'The app asking for access is not registered');
    const clientName = client.clientName ?? client.clientId;
    const requested = String(params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    const asked = requested.filter(isScope);
    const rights = rightsOf(actor.role);
    if (step === 'details') {
      ctx.body = {
        data: {
          uid,
          client: {
            id: client.clientId,
            name: clientName,
            redirectHost: URL.parse(params.redirect_uri ?? '')?.host ?? null,
          },
          workspace: { id: actor.workspaceId },
          user: { id: actor.userId, name: actor.userName, role: actor.role },
          scopes: asked.map((scope) => ({ scope, allowed: rights.has(scope) })),
          resources: targets,
          offlineAccess: requested.includes('offline_access'),
        },
      };
      return;
    }
    let result: Parameters<typeof provider.interactionResult>[2];
    if (step === 'deny') {
      result = { error: 'access_denied', error_description: 'The user did not allow access' };
    } else {
      const parsed = confirmInput.safeParse(await readJsonBody(ctx.req));
      if (!parsed.success) throw new DomainError('VALIDATION_FAILED', 'Send { "scopes": [ … ] }');
      const chosen = asked.filter((s) => parsed.data.scopes.includes(s) && rights.has(s));
      if (chosen.length === 0) {
        throw new DomainError('VALIDATION_FAILED', 'Allow at least one scope, or deny the request', {
          details: [
            {
              path: 'scopes',
              message: `choose from ${asked.filter((s) => rights.has(s)).join(', ') || 'none (nothing asked for is allowed to your role)'}`,
            },
          ],
        });
      }
      const rejected = asked.filter((s) => !chosen.includes(s));
      const accountId = accountIdOf(actor.workspaceId, actor.userId);
      const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
      const grant =
        existing && existing.accountId === accountId
          ? existing
          : new provider.Grant({ accountId, clientId: client.clientId });
      const oidc = requested.filter((s) => s === 'openid' || s === 'offline_access');
      grant.addOIDCScope([...oidc, ...chosen].join(' '));
      for (const target of targets) grant.addResourceScope(target, chosen.join(' '));
      if (rejected.length > 0) {
        grant.rejectOIDCScope(rejected.join(' '));
        for (const target of targets) grant.rejectResourceScope(target, rejected.join(' '));
      }
      const grantId = await grant.save();
      result = { login: { accountId }, consent: { grantId } };
      await audit(db, actor, {
        action: 'oauth_app.authorized',
        target: { type: 'oauth_client', id: client.clientId },
        details: { name: clientName, scopes: chosen, grantId },
      });
    }
    const redirectTo = await provider.interactionResult(ctx.req, ctx.res, result, {
      mergeWithLastSubmission: false,
    });
    ctx.body = { data: { redirectTo } };
  } catch (error) {
    sendError(ctx, error);
  }
}

/**
 * The gate for an OAuth access token (a bearer that is not an API key), on /mcp, /api/v1 and
 * /trpc: the token looked up with its user's membership on every request, so a revoked app or
 * a removed member is refused at once; its audience must be the surface's resource (a token
 * for /mcp is not one for the REST API, nor the reverse); its scopes held to the user's rights;
 * the workspace's rate limit counted as for keys. Changes are recorded as made by the app for
 * its user (docs/apps.md, "Provenance"): through MCP as `mcp`, on REST and /trpc as `app`.
 * Null when the bearer is an API key or there is none.
 */
export async function passTokenGate(
  ctx: Ctx,
  gate: Pick<GateDeps, 'db' | 'limits'>,
  oauth: OAuth,
  source: 'rest' | 'trpc' | 'mcp',
): Promise<Actor | null> {
  const token = bearerToken(requestHeader(ctx.req, 'authorization'));
  if (!token || token.startsWith(KEY_PREFIX)) return null;
  const surface = source === 'mcp' ? 'mcp' : 'api';
  const audience = oauth.resources()[surface];
  const access = await findOAuthAccess(gate.db, token);
  if (!access || access.audience !== audience) {
    throw unauthorizedToken(
      access
        ? `This access token was issued for ${access.audience ?? 'another resource'}; ask for one with resource=${audience}`
        : 'Invalid, expired or revoked access token',
      oauth.resourceMetadataUrl(surface),
    );
  }
  const actor: Actor = {
    workspaceId: access.workspaceId,
    userId: access.userId,
    userName: access.userName,
    role: access.role,
    apiKeyId: null,
    scopes: access.scopes,
    folderIds: null,
    provenance: {
      actor: {
        type: surface === 'mcp' ? 'mcp' : 'app',
        id: access.clientId,
        // An app of the workspace acts as itself; any other app for the user who allowed it.
        name: access.grantedBy === 'app' ? access.clientName : `${access.userName} via ${access.clientName}`,
      },
      source,
      requestId: ctx.state.requestId,
    },
  };
  ctx.state.actor = actor;
  await countWorkspaceRequest(ctx, gate.limits, access.workspaceId, access.rateLimitPerMinute);
  return actor;
}
