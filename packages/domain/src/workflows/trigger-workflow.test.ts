import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitBatcher } from '../rate-limit/rate-limit-batcher.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { newWorkspace, openTestDb, type TestDb } from '../testing/fixtures.ts';
import { createWorkflow } from './create-workflow.ts';
import { createWorkflowInput } from './schemas.ts';
import { type TriggerCall, type TriggerResult, triggerService } from './trigger-workflow.ts';

let t: TestDb;
let limits: RateLimitBatcher;
let trigger: (call: TriggerCall) => Promise<TriggerResult>;
beforeAll(async () => {
  t = await openTestDb();
  limits = new RateLimitBatcher(t.db, { leases: false });
  trigger = triggerService({ db: t.db, limits });
});
afterAll(async () => {
  await limits?.close();
  await t?.close();
});

const webhookWorkflow = (
  actor: Actor,
  options: { requireSignature?: boolean; rateLimitPerMinute?: number } = {},
) =>
  createWorkflow(
    t.db,
    actor,
    createWorkflowInput.parse({
      name: 'Flow',
      trigger: { type: 'INCOMING_WEBHOOK' },
      actions: [{ type: 'CONDITION', left: 1, operator: 'EXISTS' }],
      ...options,
    }),
    { baseUrl: '', checkOutboundUrl: async () => {} },
  );

/** A call with a JSON body; `reads` counts how often the service read it. */
function callOf(workflowId: string, body: unknown, extra: Partial<TriggerCall> = {}) {
  const bytes = Buffer.from(JSON.stringify(body));
  const call = {
    reads: 0,
    workflowId,
    readBody: async () => {
      call.reads++;
      return { value: body as Record<string, unknown>, bytes };
    },
    signature: undefined,
    idempotencyKey: undefined,
    ...extra,
  };
  return call;
}

function refusal(result: TriggerResult): DomainError {
  if (result.outcome !== 'refused') throw new Error(`expected a refusal, got ${result.outcome}`);
  if (!(result.error instanceof DomainError)) throw result.error;
  return result.error;
}

const runsOf = async (workflowId: string) =>
  (
    await t.query<{ n: string }>('select count(*) as n from workflow_runs where workflow_id = $1', [
      workflowId,
    ])
  )[0]?.n;

describe('triggerService', () => {
  it('queues a run for a known workflow and reports the count against its limit', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await webhookWorkflow(actor, { rateLimitPerMinute: 10 });
    const result = await trigger(callOf(workflow.id, { name: 'Ada' }));
    if (result.outcome !== 'accepted') throw new Error(`not accepted: ${result.outcome}`);
    expect(result.answer).toEqual({
      ok: true,
      workflowId: workflow.id,
      runId: expect.stringMatching(/^run_/),
    });
    expect(result.rateLimit).toMatchObject({ allowed: true, limit: 10, remaining: 9 });
    expect(await runsOf(workflow.id)).toBe('1');
  });

  it('answers an unknown or malformed id with the one NOT_FOUND, without reading the body or counting', async () => {
    for (const id of ['wf_01m7yajqape00a5jqksd4af06w', 'nope', '']) {
      const call = callOf(id, {});
      const result = await trigger(call);
      expect(refusal(result).code).toBe('NOT_FOUND');
      expect(result.rateLimit).toBeUndefined();
      expect(call.reads).toBe(0);
    }
  });

  it('refuses with what reading the body threw, before the signature and the limit', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await webhookWorkflow(actor);
    const tooLarge = new DomainError('PAYLOAD_TOO_LARGE', 'too large');
    const result = await trigger({
      ...callOf(workflow.id, {}),
      readBody: () => Promise.reject(tooLarge),
    });
    expect(result).toEqual({ outcome: 'refused', error: tooLarge });
  });

  it('checks the signature over the exact bytes before counting the call', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await webhookWorkflow(actor, { requireSignature: true });
    const secret = workflow.secret;
    if (!secret) throw new Error('a workflow that requires a signature has a secret');
    const unsigned = await trigger(callOf(workflow.id, { a: 1 }));
    expect(refusal(unsigned).code).toBe('UNAUTHORIZED');
    expect(unsigned.rateLimit).toBeUndefined();
    const body = { a: 1 };
    const signature = `sha256=${createHmac('sha256', secret).update(JSON.stringify(body)).digest('hex')}`;
    const signed = await trigger(callOf(workflow.id, body, { signature }));
    expect(signed.outcome).toBe('accepted');
  });

  it('refuses past the workflow’s limit with RATE_LIMITED and when to retry, queueing nothing', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await webhookWorkflow(actor, { rateLimitPerMinute: 1 });
    expect((await trigger(callOf(workflow.id, {}))).outcome).toBe('accepted');
    const second = await trigger(callOf(workflow.id, {}));
    const error = refusal(second);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(second.rateLimit).toMatchObject({ allowed: false, limit: 1, remaining: 0 });
    expect(await runsOf(workflow.id)).toBe('1');
  });

  it('checks recordId after counting: a malformed one is NOT_FOUND, a non-string one invalid', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await webhookWorkflow(actor);
    const malformed = await trigger(callOf(workflow.id, { recordId: 'rec_nope' }));
    expect(refusal(malformed).code).toBe('NOT_FOUND');
    expect(malformed.rateLimit?.allowed).toBe(true);
    expect(refusal(await trigger(callOf(workflow.id, { recordId: 7 }))).details).toEqual([
      { path: 'recordId', message: 'must be a string (a record id)' },
    ]);
    expect(await runsOf(workflow.id)).toBe('0');
  });

  it('replays the answer kept under an Idempotency-Key, and refuses another body under it', async () => {
    const { actor } = await newWorkspace(t.db);
    const workflow = await webhookWorkflow(actor);
    const first = await trigger(callOf(workflow.id, { n: 1 }, { idempotencyKey: 'order-1' }));
    if (first.outcome !== 'accepted') throw new Error(`not accepted: ${first.outcome}`);
    const again = await trigger(callOf(workflow.id, { n: 1 }, { idempotencyKey: 'order-1' }));
    if (again.outcome !== 'replayed') throw new Error(`not replayed: ${again.outcome}`);
    expect(again.answer).toEqual(first.answer);
    const other = await trigger(callOf(workflow.id, { n: 2 }, { idempotencyKey: 'order-1' }));
    expect(refusal(other).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(refusal(await trigger(callOf(workflow.id, {}, { idempotencyKey: 'bad key\n' }))).code).toBe(
      'VALIDATION_FAILED',
    );
    expect(await runsOf(workflow.id)).toBe('1');
  });
});
