import { type Actor, DomainError, type Scope } from '@crm/domain';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import type { ApiContext } from './context.ts';
import { toApiError, toTRPCError } from './errors.ts';
import { outputOnlyBuilder } from './internals/trpc.ts';
import { assertStorableInput } from './storable-input.ts';

/**
 * Metadata declared next to each procedure; the REST route, the OpenAPI document and the
 * tRPC types all come from it.
 */
export type ApiMeta = OpenApiMeta & {
  /** Status of a successful REST response: 201 for creations, 202 for work accepted to run later. */
  successStatus?: 200 | 201 | 202;
  /**
   * Where a 201's new resource is read (the `Location` header): a path below /api/v1 whose
   * `{name}` segments are filled from the answer's `data` (`/records/{recordId}/comments/{id}`).
   * Every 201 route declares one.
   */
  location?: string;
  /** A second success a creation may answer instead (an upsert that updated: 200), with its description. */
  alternativeSuccess?: { status: 200; description: string };
  /**
   * A route whose request or answer is a file rather than JSON (docs/jobs.md, "Files"):
   * `accepts` the media types its body may have (the procedure's input then holds `file`, the
   * body as it streams in), `answers` those its answer has (the procedure answers `{ file }`,
   * streamed out). Over /trpc such a procedure is not callable with a file.
   */
  file?: { accepts?: string[]; answers?: string[] };
  /** Input keys of a POST/PATCH that REST clients send in the query string (e.g. `upsert`). */
  queryParams?: string[];
  /**
   * Input keys a DELETE takes from a JSON body as well as from the query string (e.g. `to` of
   * `DELETE /deals/{id}/links`), for clients that send what to delete as `{ "to": … }`.
   */
  bodyParams?: string[];
  /** REST error statuses this endpoint may answer besides the common ones (400, 401, 403, 429, 500, 503). */
  errors?: number[];
  /**
   * A GET of one resource whose path does not end in a parameter and whose body changes with
   * every request (`/me`, which reports the rate limit as of the request): neither an ETag,
   * which would never match, nor a list's `Link` (rest-route.ts, `routeKind`). `list`: a GET
   * whose path ends in a parameter but that reads a paged list (`/records/{id}/related/{field}`):
   * a `Link`, no ETag.
   */
  resource?: 'volatile' | 'list';
  /**
   * What a caller must hold to call it (docs/api.md, "Scopes"): `<resource>:<action>`, or
   * `none` for what any valid credential may call (`/me`). Every procedure behind a credential
   * declares one (`scopes.test.ts`); the check is authedProcedure's, for REST, /trpc and MCP alike.
   */
  scope?: Scope | 'none';
};

/**
 * Request ids of errors tRPC answers before the call has a context (a body it cannot parse,
 * a refused credential): the server notes them in its onError, which tRPC calls with the
 * same error just before formatting it.
 */
const requestIdsOfErrors = new WeakMap<object, string>();

/** Gives an error the request id its formatted body carries when the context is missing. */
export function noteErrorRequestId(error: object, requestId: string): void {
  requestIdsOfErrors.set(error, requestId);
}

const t = initTRPC
  .context<ApiContext>()
  .meta<ApiMeta>()
  .create({
    errorFormatter({ shape, error, ctx }) {
      const domain = toApiError(error);
      return {
        ...shape,
        message: domain.message,
        data: {
          ...shape.data,
          stack: undefined,
          error: {
            code: domain.code,
            message: domain.message,
            ...(domain.details ? { details: domain.details } : {}),
            requestId: ctx?.requestId ?? requestIdsOfErrors.get(error) ?? null,
          },
        },
      };
    },
  });

export const router = t.router;

/**
 * A procedure's output schema, added with `.concat(declaredOutput(schema))` where tRPC's
 * `.output(schema)` would go: it gives the procedure its output type and the OpenAPI document
 * its response schema, but adds no middleware that parses every answer again. Answers are
 * built by the domain's serializers, typed with these schemas; `declared-output.test.ts`
 * checks that no output schema transforms what it parses (so the parse could only ever have
 * returned the same value), and the OpenAPI tests validate an answer of every operation
 * against the document, whose objects admit no undeclared property. Skipping the parse saves
 * a list of 50 records 7 % of its instructions (docs/decisions/0003-declared-output.md).
 */
export function declaredOutput<TSchema extends z.ZodType>(schema: TSchema) {
  return outputOnlyBuilder<ApiContext, ApiMeta, TSchema>(schema);
}

/**
 * Every procedure is built on this one middleware. It needs a valid credential holding the
 * procedure's scope (docs/api.md, "Scopes"): an API key's scopes within its maker's role, or a
 * signed-in user's role; the scopes are in memory with the credential, so the check costs no
 * statement. Then the success status is set, the raw input is refused when it holds what
 * cannot be stored (assertStorableInput: before the schema, which would drop a `__proto__`
 * key and recurse into any depth), and any failure (a DomainError, invalid input, anything
 * unexpected) leaves as a tRPC error whose code comes from the registry and whose cause is the
 * DomainError the REST bridge reads. It is a single middleware on purpose: every level of
 * tRPC's middleware chain copies the call's options a few times over, which a request pays for.
 */
export const authedProcedure = t.procedure.use(async ({ ctx, meta, next, getRawInput }) => {
  ctx.response.status = meta?.successStatus ?? 200;
  const actor = ctx.actor;
  if (!actor) {
    throw toTRPCError(
      new DomainError('UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <key>', {
        challenge: { scheme: 'Bearer' },
      }),
    );
  }
  const scope = meta?.scope;
  if (scope === undefined) {
    throw toTRPCError(new DomainError('INTERNAL', 'This procedure declares no scope'));
  }
  if (scope !== 'none' && !actor.scopes.has(scope)) throw toTRPCError(missingScope(actor, scope));
  await checkRawInput(getRawInput);
  const result = await next({ ctx: { actor } });
  if (!result.ok) throw toTRPCError(toApiError(result.error));
  return result;
});

/** 403 naming the scope a call needs (docs/api.md, "Scopes"). */
function missingScope(actor: Actor, scope: Scope): DomainError {
  const message =
    actor.apiKeyId !== null
      ? `This API key lacks the ${scope} scope`
      : `Your role (${actor.role}) does not allow this: it needs ${scope}, which only an owner or admin holds`;
  return new DomainError('FORBIDDEN', message, { details: [{ path: 'scope', message: `needs ${scope}` }] });
}

async function checkRawInput(getRawInput: () => Promise<unknown>): Promise<void> {
  try {
    assertStorableInput(await getRawInput());
  } catch (error) {
    throw toTRPCError(toApiError(error));
  }
}

/** Roles that manage API keys and invitations. */
const MANAGER_ROLES: readonly string[] = ['OWNER', 'ADMIN'];

/**
 * Settings that only a signed-in OWNER or ADMIN reaches (API keys, invitations): an API key
 * cannot mint further keys, so a leaked key cannot outlive its revocation.
 */
export const settingsProcedure = authedProcedure.meta({ scope: 'none' }).use(({ ctx, next }) => {
  if (ctx.actor.apiKeyId === null && !MANAGER_ROLES.includes(ctx.actor.role)) {
    throw new DomainError('FORBIDDEN', `Only an owner or admin can do this; your role is ${ctx.actor.role}`);
  }
  if (ctx.actor.apiKeyId !== null) {
    throw new DomainError(
      'FORBIDDEN',
      'API keys and members are managed by a signed-in user in the settings area',
    );
  }
  return next();
});
