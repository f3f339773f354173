import type { Database } from '@crm/db';
import { assertIdempotencyKey, findKeptAnswer, requestFingerprint } from '../idempotency/idempotency-keys.ts';
import type { RateLimitResult } from '../rate-limit/consume-rate-limit.ts';
import type { RateLimitBatcher } from '../rate-limit/rate-limit-batcher.ts';
import { Coalescer } from '../shared/coalescer.ts';
import { isDataRefusal } from '../shared/data-refusal.ts';
import { DomainError } from '../shared/errors.ts';
import {
  acceptedAnswer,
  findTriggerWorkflow,
  queueTriggeredRuns,
  type TriggeredRun,
  type TriggerWorkflow,
  triggerRecordId,
  verifyTriggerSignature,
} from './accept-trigger.ts';
import { waitingRoom } from './waiting-room.ts';

/** One call of a trigger URL, as the server read it. */
export interface TriggerCall {
  /** The URL's workflow id (the secret). */
  workflowId: string;
  /**
   * Reads the body: its JSON object and its exact bytes (which a signature covers). Called
   * only once the workflow is known, so an unknown URL never has its body read; what it
   * throws (too large, not JSON) refuses the call.
   */
  readBody: () => Promise<{ value: Record<string, unknown>; bytes: Buffer }>;
  /** `X-Service-Signature`, when sent. */
  signature: string | undefined;
  /** `Idempotency-Key`, when sent. */
  idempotencyKey: string | undefined;
}

/**
 * What came of a call. `rateLimit` is the count against the workflow's limit once it was
 * made (the RateLimit-* headers), on any outcome after it, refusals included.
 */
export type TriggerResult = { rateLimit?: RateLimitResult } & (
  | { outcome: 'accepted'; answer: ReturnType<typeof acceptedAnswer> }
  /** The Idempotency-Key already holds an answer to the same body: it again, as kept. */
  | { outcome: 'replayed'; answer: unknown }
  | { outcome: 'refused'; error: unknown }
);

export interface TriggerServiceDeps {
  db: Database;
  /** Counts calls against each workflow's rate limit, with the API's requests. */
  limits: RateLimitBatcher;
}

/**
 * The trigger URL's work (docs/workflows.md, "The trigger endpoint"), made once per server:
 * calls that arrive together share its statements (decision 0005). Order of checks: the
 * workflow (one NOT_FOUND for every kind of unknown), the body, the signature, the workflow's
 * rate limit, the Idempotency-Key, `recordId`; then the run and its job are queued in one
 * statement, so an accepted call's run is durable.
 *
 * With an Idempotency-Key (scoped to the workflow's workspace) the answer is kept 24 h, stored
 * in the statement that queues the run: the same key and body again answer the same `runId`
 * (`replayed`), another body is IDEMPOTENCY_KEY_REUSED. A call refused with NOT_FOUND (its
 * record is gone) keeps nothing.
 */
export function triggerService(deps: TriggerServiceDeps): (call: TriggerCall) => Promise<TriggerResult> {
  const { db, limits } = deps;
  const workflows = workflowLookup(db);
  const runs = triggeredRunQueue(db);
  const assertRoomToWait = waitingRoom(db);
  return async (call) => {
    let rateLimit: RateLimitResult | undefined;
    try {
      const workflow = await workflows.submit(call.workflowId, null);
      const { value: body, bytes } = await call.readBody();
      verifyTriggerSignature(workflow, bytes, call.signature);
      rateLimit = await limits.consume(`wf:${workflow.id}`, workflow.rateLimitPerMinute);
      if (!rateLimit.allowed) throw workflowRateLimited(rateLimit);
      await assertRoomToWait(workflow.workspaceId);
      const recordId = triggerRecordId(body);
      const key = call.idempotencyKey;
      if (key) assertIdempotencyKey(key);
      const idempotency = key
        ? { key, fingerprint: requestFingerprint('POST', `/api/webhooks/trigger/${workflow.id}`, body) }
        : undefined;
      const queued = await runs.submit('', { workflow, body, recordId, idempotency });
      if ('runId' in queued) {
        return { outcome: 'accepted', answer: acceptedAnswer(workflow.id, queued.runId), rateLimit };
      }
      // The key already holds an answer: replay it, or refuse another body under it.
      if (!idempotency) throw new DomainError('INTERNAL', 'A run without an Idempotency-Key was not queued');
      const answer = await findKeptAnswer(db, workflow.workspaceId, idempotency.key, idempotency.fingerprint);
      return { outcome: 'replayed', answer, rateLimit };
    } catch (error) {
      return rateLimit ? { outcome: 'refused', error, rateLimit } : { outcome: 'refused', error };
    }
  };
}

function workflowRateLimited(limit: RateLimitResult): DomainError {
  return new DomainError(
    'RATE_LIMITED',
    `This workflow accepts ${limit.limit} calls a minute; retry in ${limit.retryAfterSeconds} s`,
    { retryAfterSeconds: limit.retryAfterSeconds },
  );
}

/**
 * The workflow lookup by id, sent once per batch of concurrent calls (see Coalescer); the one
 * NOT_FOUND is every call's answer, anything else fails the batch.
 */
function workflowLookup(db: Database) {
  return new Coalescer<null, TriggerWorkflow>(async (id, items) => {
    const found = await findTriggerWorkflow(db, id).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return error;
      throw error;
    });
    return items.map(() => found);
  });
}

/**
 * Queues the runs of accepted calls, all calls (every workspace's) in one transaction at a
 * time: the calls that wait meanwhile make the next batch larger, which measured faster than
 * two in flight. Adding a job NOTIFYs the workers, and PostgreSQL commits notifying
 * transactions one at a time, each with its own disk flush (decision 0005). Should one call's
 * data fail the batch, the batch is tried again call by call, so that call alone fails
 * (VALIDATION_FAILED) and the others are queued.
 */
export function triggeredRunQueue(db: Database) {
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
