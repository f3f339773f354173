import type { Database } from '@crm/db';
import {
  type Actor,
  assertIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
  settleIdempotencyClaim,
} from '@crm/domain';
import type { ParameterizedContext } from 'koa';
import type { AppState } from '../http/state.ts';

/** Called with the final response of a request that claimed its key. */
export type FinishIdempotent = (status: number, body: string) => Promise<void>;

/**
 * `Idempotency-Key` on POST and PATCH (contract §5). Returns null without the header. With
 * it, either answers right here (a replay with `Idempotent-Replayed: true`, 409 while the
 * first request runs, 422 for another body under the same key) and returns 'answered', or
 * claims the key and returns the function that stores the response when it is known.
 * 5xx responses are not stored, so the client can retry them.
 */
export async function beginIdempotent(
  ctx: ParameterizedContext<AppState>,
  db: Database,
  actor: Actor,
  routePath: string,
  body: unknown,
): Promise<null | 'answered' | FinishIdempotent> {
  const key = ctx.get('Idempotency-Key');
  if (!key) return null;
  assertIdempotencyKey(key);
  const fingerprint = requestFingerprint(ctx.method, ctx.path, { route: routePath, body });
  const claim = settleIdempotencyClaim(await claimIdempotencyKey(db, actor.workspaceId, key, fingerprint));
  switch (claim.kind) {
    case 'replay':
      ctx.status = claim.status;
      for (const [name, value] of Object.entries(claim.headers)) ctx.set(name, value);
      ctx.set('Idempotent-Replayed', 'true');
      ctx.type = 'application/json';
      ctx.body = claim.body;
      return 'answered';
    case 'claimed':
      return async (status, responseBody) => {
        if (status >= 500) await releaseIdempotencyKey(db, actor.workspaceId, key);
        else {
          await completeIdempotencyKey(db, actor.workspaceId, key, {
            status,
            headers: { 'Content-Type': 'application/json' },
            body: responseBody,
          });
        }
      };
  }
}
