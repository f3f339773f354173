import { type AppRouter, createApiContext, toErrorResponse } from '@crm/api';
import type { Actor } from '@crm/domain';
import { createMcpServer } from '@crm/mcp';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Middleware, ParameterizedContext } from 'koa';
import { type GateDeps, passGate } from '../http/gate.ts';
import { logFailure } from '../http/send-error.ts';
import type { AppState } from '../http/state.ts';
import type { OAuth } from '../oauth/mount-oauth.ts';
import { readJsonBody } from '../rest/read-body.ts';
import { clientNameOf, sessionIdFor } from './client-name.ts';
import { type OriginPolicy, refusedOrigin } from './origin.ts';

export const MCP_PATH = '/mcp';

export interface McpDeps {
  router: AppRouter;
  gate: GateDeps;
  origins: OriginPolicy;
  version: string;
  /** The authorization server whose access tokens /mcp accepts beside API keys. */
  oauth?: OAuth;
}

/**
 * The MCP endpoint (docs/mcp.md): Streamable HTTP without sessions, each POST one JSON-RPC
 * message answered with JSON. The request passes the same gate as /api/v1 (key, scopes, the
 * workspace's rate limit, request id), then a server made for it lists and runs the tools
 * the key's scopes allow, calling the procedures with the key's context. GET (a stream of
 * server messages) and DELETE (ending a session) are answered 405, as the transport lets a
 * server without either do.
 */
export function mcpEndpoint(deps: McpDeps): Middleware<AppState> {
  return async (ctx) => {
    ctx.state.route = MCP_PATH;
    const origin = refusedOrigin(ctx, deps.origins);
    if (origin) return rpcError(ctx, 403, origin);
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      return rpcError(
        ctx,
        405,
        `${ctx.method} is not served: this endpoint is stateless; send each message as a POST`,
      );
    }
    let agent: Actor;
    let body: Record<string, unknown>;
    let client: string;
    try {
      const actor = await passGate(ctx, deps.gate, 'mcp');
      // An OAuth token's actor comes with its provenance (mount-oauth.ts); a key's has a key id.
      const viaToken = actor.apiKeyId === null ? actor : null;
      body = await readJsonBody(ctx.req);
      client = body.method === 'initialize' ? clientNameOf(body) : clientNameOf(ctx.get('Mcp-Session-Id'));
      // A key's changes are recorded as the key's, made through MCP by the client it declared;
      // a token's as its user's through the app (mount-oauth.ts).
      const key = actor.provenance?.actor;
      agent = viaToken ?? {
        ...actor,
        provenance: {
          actor: {
            type: 'mcp',
            id: key?.id ?? actor.userId,
            name: `${key?.name ?? actor.userName} (${client})`,
          },
          source: 'mcp',
          requestId: ctx.state.requestId,
        },
      };
    } catch (error) {
      return gateError(ctx, error, deps.oauth);
    }
    const initializing = body.method === 'initialize';
    const context = createApiContext(deps.gate.db, deps.gate.services, agent, ctx.state.requestId);
    const server = createMcpServer(
      { caller: deps.router.createCaller(context), scopes: agent.scopes, response: context.response },
      deps.version,
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The client's declared name travels back on its later requests in the session id it is
    // given; nothing is kept on the server.
    if (initializing) ctx.res.setHeader('Mcp-Session-Id', sessionIdFor(client));
    ctx.respond = false;
    ctx.res.setHeader('X-Request-Id', ctx.state.requestId);
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, body);
  };
}

/** A failure before the transport, as a JSON-RPC error with the HTTP status and headers of REST's. */
function gateError(ctx: ParameterizedContext<AppState>, error: unknown, oauth: OAuth | undefined) {
  const response = toErrorResponse(error, ctx.state.requestId);
  logFailure(ctx.state.log, error, response.status, response.body.error.code);
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  // Without a usable credential, point the client at how to get one (RFC 9728).
  if (response.status === 401 && oauth) {
    ctx.set('WWW-Authenticate', `Bearer resource_metadata="${oauth.resourceMetadataUrl()}"`);
  }
  const code = response.body.error.code === 'VALIDATION_FAILED' ? -32700 : -32000;
  rpcError(ctx, response.status, response.body.error.message, code, response.body.error);
}

function rpcError(
  ctx: ParameterizedContext<AppState>,
  status: number,
  message: string,
  code = -32000,
  data?: unknown,
) {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null };
}
