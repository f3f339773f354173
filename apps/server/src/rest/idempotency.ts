import type { Database } from '@crm/db';
import { type Actor, assertIdempotencyKey, requestFingerprint } from '@crm/domain';
import type { ParameterizedContext } from 'koa';
import type { AppState } from '../http/state.ts';
import { beginIdempotentWork } from './idempotency-store.ts';
import type { RequestWork } from './request-transaction.ts';

/**
 * An idempotent request under way: its work runs on `db`; `finish` is called once with the
 * final response: a status below 500 commits the work and stores the response under the key;
 * a 5xx rolls the work back. Rejects when the commit fails.
 */
export type IdempotentRequest = RequestWork;

/**
 * `Idempotency-Key` on POST and PATCH (docs/api.md, "Idempotency-Key"). Returns null
 * without the header. With it, either answers right here (a replay with
 * `Idempotent-Replayed: true`; 409 while the first request runs and 422 for another body
 * under the same key are thrown) and returns 'answered', or returns the transaction the
 * request's work must run on, committed with the response by `finish`.
 */
export async function beginIdempotent(
  ctx: ParameterizedContext<AppState>,
  db: Database,
  actor: Actor,
  routePath: string,
  body: unknown,
  isolationLevel?: 'repeatable read',
): Promise<null | 'answered' | IdempotentRequest> {
  const key = ctx.get('Idempotency-Key');
  if (!key) return null;
  assertIdempotencyKey(key);
  const fingerprint = requestFingerprint(ctx.method, ctx.path, { route: routePath, body });
  const work = await beginIdempotentWork(db, actor.workspaceId, key, fingerprint, isolationLevel);
  if (work.kind === 'replay') {
    ctx.status = work.status;
    for (const [name, value] of Object.entries(work.headers)) ctx.set(name, value);
    ctx.set('Idempotent-Replayed', 'true');
    ctx.type = 'application/json';
    ctx.body = work.body;
    return 'answered';
  }
  let finished: Promise<void> | undefined;
  return {
    db: work.tx,
    finish(status, responseBody, headers = {}) {
      finished ??= work.finish(
        status >= 500
          ? null
          : { status, headers: { 'Content-Type': 'application/json', ...headers }, body: responseBody },
      );
      return finished;
    },
  };
}
