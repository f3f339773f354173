import { type ErrorResponse, TRIGGER_PATH_TEMPLATE } from '@crm/api';
import type { Database } from '@crm/db';
import { type RateLimitBatcher, triggeredRunQueue, triggerService } from '@crm/domain';
import type { Middleware } from 'koa';
import { sendError } from '../http/send-error.ts';
import type { AppState } from '../http/state.ts';
import { readJsonBodyWithBytes } from '../rest/read-body.ts';

/** The path the document declares (`{workflowId}`), in the router's form (`:workflowId`). */
export const TRIGGER_PATH = TRIGGER_PATH_TEMPLATE.replace('{workflowId}', ':workflowId');

export interface TriggerDeps {
  db: Database;
  /** Counts calls against each workflow's rate limit, with the API's requests. */
  limits: RateLimitBatcher;
}

/**
 * Errors are `{ ok: false, error: { … } }`: the REST error body beside `ok` (docs/workflows.md,
 * "The trigger endpoint").
 */
export const triggerErrorBody = (body: ErrorResponse['body']) => ({ ok: false, ...body });

/**
 * `POST /api/webhooks/trigger/{workflowId}` (docs/workflows.md, "The trigger endpoint"): no API
 * key — the URL's random id is the secret, optionally backed by an HMAC signature. The work is
 * the domain's (`triggerService`, packages/domain/src/workflows/trigger-workflow.ts); this
 * route reads the request and answers: 200 `{ ok, workflowId, runId }` once the run and its
 * job are committed, a replay with `Idempotent-Replayed: true`, or the error body with `ok:
 * false`; the RateLimit-* headers once the call was counted.
 */
export function triggerEndpoint(deps: TriggerDeps): Middleware<AppState> {
  const trigger = triggerService(deps);
  return async (ctx) => {
    const result = await trigger({
      workflowId: ctx.params.workflowId ?? '',
      readBody: () => readJsonBodyWithBytes(ctx.req),
      signature: ctx.get('X-Service-Signature') || undefined,
      idempotencyKey: ctx.get('Idempotency-Key') || undefined,
    });
    if (result.rateLimit) {
      ctx.set('RateLimit-Limit', String(result.rateLimit.limit));
      ctx.set('RateLimit-Remaining', String(result.rateLimit.remaining));
      ctx.set('RateLimit-Reset', String(result.rateLimit.resetSeconds));
    }
    switch (result.outcome) {
      case 'accepted':
        ctx.status = 200;
        ctx.body = result.answer;
        return;
      case 'replayed':
        ctx.set('Idempotent-Replayed', 'true');
        ctx.status = 200;
        ctx.body = result.answer;
        return;
      case 'refused':
        sendError(ctx, result.error, triggerErrorBody);
    }
  };
}

/** The queue of accepted calls' runs (batch-isolation.test.ts drives it directly). */
export const runQueue = triggeredRunQueue;
