import { type ErrorResponse, TRIGGER_PATH_TEMPLATE } from '@crm/api';
import type { Database } from '@crm/db';
import {
  acceptedAnswer,
  assertIdempotencyKey,
  Coalescer,
  DomainError,
  findIdempotentAnswer,
  findTriggerWorkflow,
  isDataRefusal,
  queueTriggeredRuns,
  type RateLimitBatcher,
  requestFingerprint,
  type TriggeredRun,
  type TriggerWorkflow,
  triggerRecordId,
  verifyTriggerSignature,
} from '@crm/domain';
import type { Middleware, ParameterizedContext } from 'koa';
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
 * key — the URL's random id is the secret, optionally backed by an HMAC signature. Answers 200
 * `{ ok, workflowId, runId }` once the run and its job are committed; the run happens after.
 * Order of checks: the workflow (one 404 for every kind of unknown), the body (413, 415,
 * 400), the signature (401), the workflow's rate limit (429), the Idempotency-Key, `recordId`.
 *
 * With `Idempotency-Key` (as on the REST API, scoped to the workflow's workspace) the answer
 * is kept 24 h, stored in the statement that queues the run (see queueTriggeredRuns): the
 * same key and body again answer the same `runId` with `Idempotent-Replayed: true`, another
 * body is a 422. A call refused with a 404 (its record is gone) keeps nothing.
 */
export function triggerEndpoint(deps: TriggerDeps): Middleware<AppState> {
  const { db, limits } = deps;
  const batches = triggerBatches(db);
  return async (ctx) => {
    try {
      const workflow = await batches.workflows.submit(ctx.params.workflowId ?? '', null);
      const { value: body, bytes } = await readJsonBodyWithBytes(ctx.req);
      verifyTriggerSignature(workflow, bytes, ctx.get('X-Service-Signature') || undefined);
      await consumeTriggerLimit(ctx, limits, workflow);
      const recordId = triggerRecordId(body);
      const key = ctx.get('Idempotency-Key');
      if (key) assertIdempotencyKey(key);
      const idempotency = key
        ? { key, fingerprint: requestFingerprint('POST', `/api/webhooks/trigger/${workflow.id}`, body) }
        : undefined;
      const queued = await batches.runs.submit('', { workflow, body, recordId, idempotency });
      if ('runId' in queued) {
        answer(ctx, 200, acceptedAnswer(workflow.id, queued.runId));
        return;
      }
      // The key already holds an answer: replay it, or refuse another body under it.
      const { key: taken, fingerprint } = idempotency!;
      const replay = await findIdempotentAnswer(db, workflow.workspaceId, taken, fingerprint);
      ctx.set('Idempotent-Replayed', 'true');
      ctx.type = 'application/json';
      answer(ctx, replay.status, replay.body);
    } catch (error) {
      sendError(ctx, error, triggerErrorBody);
    }
  };
}

/**
 * The endpoint's statements, each sent once per batch of concurrent calls (see Coalescer):
 * the workflow lookup (by id) and the transaction that queues the runs (all calls, one
 * transaction at a time: the calls that wait meanwhile make the next batch larger, which
 * measured faster than two in flight). The count against the workflow's rate limit goes
 * through the service's RateLimitBatcher, with the API's requests. Queueing in batches matters most: adding a job NOTIFYs the
 * workers, and PostgreSQL commits notifying transactions one at a time, each with its own
 * disk flush.
 */
function triggerBatches(db: Database) {
  return {
    workflows: new Coalescer<null, TriggerWorkflow>(async (id, items) => {
      const found = await findTriggerWorkflow(db, id).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === 'NOT_FOUND') return error;
        throw error;
      });
      return items.map(() => found);
    }),
    runs: runQueue(db),
  };
}

/**
 * Queues the runs of accepted calls, all calls (every workspace's) in one transaction at a
 * time. Should one call's data fail the batch, the batch is tried again call by call,
 * so that call alone fails (400) and the others are queued.
 */
export function runQueue(db: Database) {
  return new Coalescer<TriggeredRun, { runId: string } | { keyTaken: true }>(
    async (_key, calls) => {
      try {
        return (await queueTriggeredRuns(db, calls)).map((queued) =>
          'error' in queued ? queued.error : queued,
        );
      } catch (error) {
        if (calls.length === 1 && refusedForItsData(error)) {
          return [
            new DomainError('VALIDATION_FAILED', 'The request body holds a value that cannot be stored'),
          ];
        }
        throw error;
      }
    },
    { isolate: refusedForItsData },
  );
}

/** PostgreSQL refused a value, or a body too deep to serialise overflowed the stack. */
const refusedForItsData = (error: unknown) => isDataRefusal(error) || error instanceof RangeError;

function answer(ctx: ParameterizedContext<AppState>, status: number, body: unknown) {
  ctx.status = status;
  ctx.body = body;
}

async function consumeTriggerLimit(
  ctx: ParameterizedContext<AppState>,
  limits: RateLimitBatcher,
  workflow: TriggerWorkflow,
) {
  const limit = await limits.consume(`wf:${workflow.id}`, workflow.rateLimitPerMinute);
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
