import {
  type AppRouter,
  createApiContext,
  errorHeaders,
  hasProcedure,
  noteErrorRequestId,
  statusOf,
  toApiError,
  toTRPCError,
} from '@crm/api';
import type { Actor } from '@crm/domain';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { Middleware } from 'koa';
import { type GateDeps, passTrpcGate } from './gate.ts';
import { logFailure } from './send-error.ts';
import type { AppState } from './state.ts';

export const TRPC_PREFIX = '/trpc';

/**
 * The same routers for internal TypeScript apps, at /trpc: the web app signs in with a session
 * cookie (CSRF-checked), other apps send an API key as on REST. Failures of the gate reach
 * the client as tRPC errors with the same codes.
 */
export function trpcApi(router: AppRouter, gate: GateDeps): Middleware<AppState> {
  const { db } = gate;
  return async (ctx) => {
    ctx.state.route = trpcRoute(router, ctx.path.slice(TRPC_PREFIX.length + 1));
    let actor: Actor | null = null;
    let gateError: unknown;
    try {
      actor = await passTrpcGate(ctx, gate);
    } catch (error) {
      gateError = error;
    }
    const apiContext = createApiContext(db, gate.services, actor, ctx.state.requestId);
    // Koa must not answer: the tRPC handler writes to res. Its status defaults to 200, and
    // the reason phrase is left for Node to derive from the final status.
    ctx.respond = false;
    ctx.status = 200;
    ctx.res.statusMessage = '';
    await nodeHTTPRequestHandler({
      router,
      req: ctx.req,
      res: ctx.res,
      path: ctx.path.slice(TRPC_PREFIX.length + 1),
      maxBodySize: 1024 * 1024,
      createContext: () => {
        if (gateError) throw toTRPCError(toApiError(gateError));
        return apiContext;
      },
      // Headers a failure implies (Retry-After, WWW-Authenticate) as on the REST surface.
      responseMeta: ({ errors }) => {
        const headers = new Headers();
        for (const error of errors) {
          for (const [name, value] of Object.entries(errorHeaders(toApiError(error))))
            headers.set(name, value);
        }
        return { headers };
      },
      // Every error passes here before its body is written: a 5xx logs its cause with the
      // request id, and errors raised before the context exists still carry that id.
      onError: ({ error }) => {
        noteErrorRequestId(error, ctx.state.requestId);
        const domain = toApiError(error);
        logFailure(ctx.state.log, error, statusOf(domain), domain.code);
      },
    });
  };
}

/**
 * The route a tRPC request is logged and measured under: `/trpc/<procedure>`, `/trpc/(batch)`
 * for several in one request, `/trpc/(unknown)` for a name the router lacks (never the name
 * sent, which would let clients invent label values).
 */
function trpcRoute(router: AppRouter, path: string): string {
  if (path.includes(',')) return `${TRPC_PREFIX}/(batch)`;
  return hasProcedure(router, path) ? `${TRPC_PREFIX}/${path}` : `${TRPC_PREFIX}/(unknown)`;
}
