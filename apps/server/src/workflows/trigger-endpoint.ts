import { type ErrorResponse, toErrorResponse } from '@crm/api';
import type { Database } from '@crm/db';
import {
  assertIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  consumeRateLimitMany,
  DomainError,
  findTriggerWorkflow,
  queueTriggeredRuns,
  type RateLimitResult,
  releaseIdempotencyKey,
  requestFingerprint,
  settleIdempotencyClaim,
  type TriggeredRun,
  type TriggerWorkflow,
  triggerRecordId,
  verifyTriggerSignature,
} from '@crm/domain';
import type { Middleware, ParameterizedContext } from 'koa';
import { sendError } from '../http/send-error.ts';
import type { AppState } from '../http/state.ts';
import { readJsonBodyWithBytes } from '../rest/read-body.ts';
import { Coalescer } from './coalescer.ts';

export const TRIGGER_PATH = '/api/webhooks/trigger/:workflowId';

export interface TriggerDeps {
  db: Database;
  /** Where rate-limit counters are written; default `db`. */
  countersDb?: Database;
}

/** Contract §7 answers `{ ok: false, error: { … } }`: the error body of §2 beside `ok`. */
export const triggerErrorBody = (body: ErrorResponse['body']) => ({ ok: false, ...body });

/**
 * `POST /api/webhooks/trigger/{workflowId}` (spec §6, contract §7): no API key — the URL's
 * random id is the secret, optionally backed by an HMAC signature. Answers 200
 * `{ ok, workflowId, runId }` once the run and its job are committed; the run happens after.
 * Order of checks: the workflow (one 404 for every kind of unknown), the body (413, 415,
 * 400), the signature (401), the workflow's rate limit (429), the Idempotency-Key, `recordId`.
 */
export function triggerEndpoint(deps: TriggerDeps): Middleware<AppState> {
  const { db } = deps;
  const countersDb = deps.countersDb ?? db;
  const batches = triggerBatches(db, countersDb);
  return async (ctx) => {
    try {
      const workflow = await batches.workflows.submit(ctx.params.workflowId ?? '', null);
      const { value: body, bytes } = await readJsonBodyWithBytes(ctx.req);
      verifyTriggerSignature(workflow, bytes, ctx.get('X-Service-Signature') || undefined);
      await consumeTriggerLimit(ctx, batches, workflow);
      const recordId = triggerRecordId(body);
      const queue = () => batches.runs.submit('', { workflow, body, recordId });
      const key = ctx.get('Idempotency-Key');
      if (!key) {
        answer(ctx, 200, { ok: true, workflowId: workflow.id, runId: await queue() });
        return;
      }
      await acceptOnce(ctx, db, workflow, key, body, queue);
    } catch (error) {
      sendError(ctx, error, triggerErrorBody);
    }
  };
}

type TriggerBatches = ReturnType<typeof triggerBatches>;

/**
 * The endpoint's three statements, each sent once per batch of concurrent calls (see
 * Coalescer): the workflow lookup (by id), the count against its rate limit (by workflow),
 * and the transaction that queues the runs (all calls, one transaction at a time: the
 * calls that wait meanwhile make the next batch larger, which measured faster than two in
 * flight). Queueing in batches matters most: adding a job NOTIFYs the
 * workers, and PostgreSQL commits notifying transactions one at a time, each with its own
 * disk flush.
 */
function triggerBatches(db: Database, countersDb: Database) {
  return {
    workflows: new Coalescer<null, TriggerWorkflow>(async (id, items) => {
      const found = await findTriggerWorkflow(db, id).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === 'NOT_FOUND') return error;
        throw error;
      });
      return items.map(() => found);
    }),
    limits: new Coalescer<number, RateLimitResult>(async (subject, limits) => {
      const grant = await consumeRateLimitMany(
        countersDb,
        subject,
        limits[limits.length - 1]!,
        limits.length,
      );
      return limits.map((_, i) => grant.resultOf(i));
    }),
    runs: new Coalescer<TriggeredRun, string>(async (_key, calls) =>
      (await queueTriggeredRuns(db, calls)).map((queued) =>
        'error' in queued ? queued.error : queued.runId,
      ),
    ),
  };
}

function answer(ctx: ParameterizedContext<AppState>, status: number, body: unknown) {
  ctx.status = status;
  ctx.body = body;
}

async function consumeTriggerLimit(
  ctx: ParameterizedContext<AppState>,
  batches: TriggerBatches,
  workflow: TriggerWorkflow,
) {
  const limit = await batches.limits.submit(`wf:${workflow.id}`, workflow.rateLimitPerMinute);
  ctx.set('RateLimit-Limit', String(limit.limit));
  ctx.set('RateLimit-Remaining', String(limit.remaining));
  ctx.set('RateLimit-Reset', String(limit.resetSeconds));
  if (!limit.allowed) {
    throw new DomainError(
      'RATE_LIMITED',
      `This workflow accepts ${limit.limit} calls a minute; retry in ${limit.retryAfterSeconds} s`,
      { headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
    );
  }
}

/**
 * With `Idempotency-Key` (as on the REST API, scoped to the workflow's workspace): the first
 * call queues the run and its answer is kept 24 h; the same key and body again answer the
 * same `runId` with `Idempotent-Replayed: true`; another body is 422; 409 while the first is
 * still being accepted.
 */
async function acceptOnce(
  ctx: ParameterizedContext<AppState>,
  db: Database,
  workflow: TriggerWorkflow,
  key: string,
  body: Record<string, unknown>,
  queue: () => Promise<string>,
) {
  assertIdempotencyKey(key);
  const fingerprint = requestFingerprint('POST', `/api/webhooks/trigger/${workflow.id}`, body);
  const claim = settleIdempotencyClaim(await claimIdempotencyKey(db, workflow.workspaceId, key, fingerprint));
  switch (claim.kind) {
    case 'replay':
      ctx.set('Idempotent-Replayed', 'true');
      ctx.type = 'application/json';
      answer(ctx, claim.status, claim.body);
      return;
    case 'claimed':
      break;
  }
  let result: { status: number; body: unknown };
  try {
    result = {
      status: 200,
      body: { ok: true, workflowId: workflow.id, runId: await queue() },
    };
  } catch (error) {
    const response = toErrorResponse(error, ctx.state.requestId);
    if (response.status >= 500) {
      await releaseIdempotencyKey(db, workflow.workspaceId, key).catch(() => undefined);
      throw error;
    }
    result = { status: response.status, body: triggerErrorBody(response.body) };
  }
  await completeIdempotencyKey(db, workflow.workspaceId, key, {
    status: result.status,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(result.body),
  });
  answer(ctx, result.status, result.body);
}
