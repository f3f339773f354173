import { fromZodError } from '@crm/api';
import type { Database } from '@crm/db';
import {
  acceptInvitation,
  acceptInvitationInput,
  authenticateSession,
  changePassword,
  DomainError,
  endSession,
  type NewSession,
  openWorkspace,
  passwordInput,
  SESSION_MAX_AGE_MS,
  type SignInLimits,
  type SignInSource,
  signIn,
} from '@crm/domain';
import { Router } from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { z } from 'zod';
import { readJsonBody } from '../rest/read-body.ts';
import { CSRF_HEADER, SESSION_COOKIE, sameToken } from './gate.ts';
import type { AppState } from './state.ts';

const AUTH_PREFIX = '/auth';

const signInInput = z.strictObject({
  email: z.string().trim().min(1, 'is required').max(320).pipe(z.email('must be an email address')),
  password: z.string().min(1, 'is required').max(200),
});

const openWorkspaceInput = z.strictObject({ workspaceId: z.string().min(1, 'is required').max(200) });

const changePasswordInput = z.strictObject({
  currentPassword: z.string().min(1, 'is required').max(200),
  newPassword: passwordInput,
});

type Ctx = ParameterizedContext<AppState>;

export interface AuthOptions {
  /** PUBLIC_URL: when set, the only origin whose pages may post here. */
  publicUrl: string;
  /** Failed sign-ins allowed per 15 minutes (defaults in sign-in-throttle.ts). */
  signInLimits?: SignInLimits;
}

/**
 * Sign-in for the web app, outside the API surfaces because it sets and clears the session
 * cookie: HTTP-only (scripts cannot read it), SameSite=Lax, Secure over HTTPS. The answer
 * carries the CSRF token the app sends back on every /trpc request.
 *
 *   POST /auth/sign-in {email, password}        GET /auth/session
 *   POST /auth/sign-out (X-CSRF-Token)          POST /auth/accept-invitation {token, name, password}
 *   POST /auth/change-password {currentPassword, newPassword} (X-CSRF-Token)
 *   POST /auth/open-workspace {workspaceId} (X-CSRF-Token)
 *
 * Password checks go through the sign-in throttles, keyed by the client address: `ctx.ip`,
 * the socket's address, or with TRUST_PROXY the right-most X-Forwarded-For entry (the one the
 * proxy appended; app.ts sets maxIpsCount to 1), never one the client wrote itself.
 */
export function authRoutes(db: Database, options: AuthOptions): Router<AppState> {
  const routes = new Router<AppState>({ prefix: AUTH_PREFIX });
  const ownOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  const refuseForeignOrigin = (ctx: Ctx) => refuseOtherOrigin(ctx, ownOrigin);
  const source = (ctx: Ctx): SignInSource => ({
    address: ctx.ip,
    requestId: ctx.state.requestId,
    ...(options.signInLimits ? { limits: options.signInLimits } : {}),
  });

  routes.post('/sign-in', async (ctx) => {
    refuseForeignOrigin(ctx);
    const input = parse(signInInput, await readJsonBody(ctx.req));
    const session = await signIn(db, input, source(ctx));
    await answerWithSession(ctx, db, session);
  });

  routes.post('/accept-invitation', async (ctx) => {
    refuseForeignOrigin(ctx);
    const input = parse(acceptInvitationInput, await readJsonBody(ctx.req));
    const session = await acceptInvitation(db, input, source(ctx));
    await answerWithSession(ctx, db, session);
  });

  // The session making the change stays signed in; the user's other sessions end.
  routes.post('/change-password', async (ctx) => {
    refuseForeignOrigin(ctx);
    const { token } = await signedIn(ctx, db);
    const input = parse(changePasswordInput, await readJsonBody(ctx.req));
    const { sessionsEnded } = await changePassword(db, { token, ...input }, source(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: { passwordChanged: true, sessionsEnded } };
  });

  // Opens another workspace of the user (a sandbox of this one, or the one a sandbox was made
  // from): a new session there, this one ended (docs/operations.md, "Sandboxes").
  routes.post('/open-workspace', async (ctx) => {
    refuseForeignOrigin(ctx);
    const { token, session } = await signedIn(ctx, db);
    const input = parse(openWorkspaceInput, await readJsonBody(ctx.req));
    const opened = await openWorkspace(db, {
      token,
      userId: session.actor.userId,
      workspaceId: input.workspaceId,
    });
    await answerWithSession(ctx, db, opened);
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

/** The session of a request that changes it: its cookie, and the CSRF token it was given. */
async function signedIn(ctx: Ctx, db: Database) {
  const token = ctx.cookies.get(SESSION_COOKIE);
  const session = await authenticateSession(db, token);
  if (!session || !token) throw new DomainError('UNAUTHORIZED', 'Not signed in');
  if (!sameToken(ctx.get(CSRF_HEADER), session.csrfToken)) {
    throw new DomainError('FORBIDDEN', `Missing or wrong ${CSRF_HEADER} header`);
  }
  return { token, session };
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
    workspace: { id: session.actor.workspaceId, name: session.workspaceName, sandboxOf: session.sandboxOf },
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
 *
 * This server's origin is PUBLIC_URL's when set, else the scheme (X-Forwarded-Proto is
 * trusted with TRUST_PROXY) and the Host header as received. Never X-Forwarded-Host, which
 * Koa's ctx.host and ctx.href follow behind a proxy: a client could set it to match any
 * Origin.
 */
function refuseOtherOrigin(ctx: Ctx, ownOrigin: string | undefined) {
  const origin = ctx.get('Origin');
  if (!origin) return;
  const own = ownOrigin ?? `${ctx.protocol}://${ctx.req.headers.host ?? ''}`;
  if (origin.toLowerCase() !== own.toLowerCase()) {
    throw new DomainError('FORBIDDEN', `Requests from ${origin} are not accepted`);
  }
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}
