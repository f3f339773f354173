import { fromZodError } from '@crm/api';
import type { Database } from '@crm/db';
import {
  acceptInvitation,
  acceptInvitationInput,
  authenticateSession,
  DomainError,
  endSession,
  type NewSession,
  SESSION_MAX_AGE_MS,
  signIn,
} from '@crm/domain';
import { Router } from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { z } from 'zod';
import { readJsonBody } from '../rest/read-body.ts';
import { CSRF_HEADER, SESSION_COOKIE, sameToken } from './gate.ts';
import type { AppState } from './state.ts';

export const AUTH_PREFIX = '/auth';

const signInInput = z.strictObject({
  email: z.string().trim().min(1, 'is required').max(320),
  password: z.string().min(1, 'is required').max(200),
});

type Ctx = ParameterizedContext<AppState>;

/**
 * Sign-in for the web app, outside the API surfaces because it sets and clears the session
 * cookie: HTTP-only (scripts cannot read it), SameSite=Lax, Secure over HTTPS. The answer
 * carries the CSRF token the app sends back on every /trpc request.
 *
 *   POST /auth/sign-in {email, password}        GET /auth/session
 *   POST /auth/sign-out (X-CSRF-Token)          POST /auth/accept-invitation {token, name, password}
 */
export function authRoutes(db: Database): Router<AppState> {
  const routes = new Router<AppState>({ prefix: AUTH_PREFIX });

  routes.post('/sign-in', async (ctx) => {
    refuseForeignOrigin(ctx);
    const input = parse(signInInput, await readJsonBody(ctx.req));
    const session = await signIn(db, input);
    await answerWithSession(ctx, db, session);
  });

  routes.post('/accept-invitation', async (ctx) => {
    refuseForeignOrigin(ctx);
    const input = parse(acceptInvitationInput, await readJsonBody(ctx.req));
    const session = await acceptInvitation(db, input);
    await answerWithSession(ctx, db, session);
  });

  routes.get('/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const session = await authenticateSession(db, ctx.cookies.get(SESSION_COOKIE));
    if (!session) throw new DomainError('UNAUTHORIZED', 'Not signed in');
    ctx.body = { data: describe(session) };
  });

  routes.post('/sign-out', async (ctx) => {
    refuseForeignOrigin(ctx);
    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = await authenticateSession(db, token);
    if (session && !sameToken(ctx.get(CSRF_HEADER), session.csrfToken)) {
      throw new DomainError('FORBIDDEN', `Missing or wrong ${CSRF_HEADER} header`);
    }
    await endSession(db, token);
    setCookie(ctx, '', 0);
    ctx.body = { data: { signedOut: true } };
  });

  return routes;
}

async function answerWithSession(ctx: Ctx, db: Database, session: NewSession) {
  setCookie(ctx, session.token, SESSION_MAX_AGE_MS);
  const info = await authenticateSession(db, session.token);
  if (!info) throw new DomainError('INTERNAL', 'The new session could not be read back');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { data: describe(info) };
}

function describe(session: NonNullable<Awaited<ReturnType<typeof authenticateSession>>>) {
  return {
    user: {
      id: session.actor.userId,
      name: session.actor.userName,
      email: session.email,
      role: session.actor.role,
    },
    workspace: { id: session.actor.workspaceId, name: session.workspaceName },
    csrfToken: session.csrfToken,
  };
}

function setCookie(ctx: Ctx, value: string, maxAge: number) {
  ctx.cookies.set(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secure,
    path: '/',
    maxAge,
    overwrite: true,
  });
}

/**
 * A browser names the page that sent a POST in Origin; a form on another site posting here
 * (login CSRF) is refused. Clients that send no Origin (curl, tests) are not browsers.
 */
function refuseForeignOrigin(ctx: Ctx) {
  const origin = ctx.get('Origin');
  // Koa 3's ctx.origin is the Origin header itself; this server's own origin is built here.
  if (origin && origin !== `${ctx.protocol}://${ctx.host}`) {
    throw new DomainError('FORBIDDEN', `Requests from ${origin} are not accepted`);
  }
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}
