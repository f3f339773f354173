import type { Database } from '@crm/db';
import type { Actor, BatchOutcome, Scope } from '@crm/domain';
import type { z } from 'zod';
import { type BatchAnswer, batchAnswer, batchEnvelope } from './batch-answer.ts';
import { restRoute } from './rest-route.ts';
import { authedProcedure, declaredOutput } from './trpc.ts';

/** How every batch write is answered, said at the end of each one's description. */
const ANSWERED =
  'Answers 200 with one entry per item, in item order: `{ index, status, data }` or `{ index, status, error }`, `status` being what the single call would have answered; `meta` counts both. Items are independent: one that fails writes nothing, the others are written. At most 100 items; counts as one request against the rate limit.';

/**
 * The answer of a resource's batch writes: `batchEnvelope(item)` under its name in the OpenAPI
 * document (`RecordBatchAnswer`). Made once per name and shared by the operations that answer
 * it, since a name stands for one schema.
 */
export function batchAnswerSchema<T extends z.ZodType>(item: T, name: string) {
  return batchEnvelope(item).meta({ id: name });
}

/** What one batch write is made of; everything else is the same for all of them. */
export interface BatchWrite<TInput extends z.ZodType, TData> {
  /** `<resource>:write`, or `<resource>:delete` for a batch that removes. */
  scope: Scope;
  method: 'POST' | 'PATCH';
  /** `/<resource>/batch`, or `/<resource>/batch/<verb>` for a batch of ids. */
  path: `/${string}/batch${string}`;
  tags: string[];
  summary: string;
  /** What is done to each item, in terms of the single call; how the batch is answered follows it. */
  description: string;
  /** Input keys read from the query string (`upsert`). */
  queryParams?: string[];
  /** The body: the domain's batch input (`items` or `ids`). */
  input: TInput;
  /** The answer (`batchAnswerSchema`). */
  answer: z.ZodType<BatchAnswer<TData>>;
  /** The domain's batch action: one outcome per item, in item order. */
  action: (db: Database, actor: Actor, input: z.output<TInput>) => Promise<BatchOutcome<TData>[]>;
}

/**
 * A batch write of records, deals or tasks (docs/api.md, "Batch writes"): the procedure for
 * REST and tRPC, from its route, its body, its answer and the domain action, which runs every
 * item and gives each its outcome. The answer holds each outcome with the status the single
 * call would have answered, a failed item's error in the shape of the error body
 * (`batchAnswer`).
 */
export function batchProcedure<TInput extends z.ZodType, TData>(write: BatchWrite<TInput, TData>) {
  const { scope, method, path, tags, summary, description, queryParams } = write;
  // `input` in the mutation is what `write.input` parsed; tRPC's type of it does not reduce to
  // `z.output<TInput>` for a schema the function is generic over, hence the cast.
  return authedProcedure
    .meta(
      restRoute({
        scope,
        openapi: { method, path, tags, summary, description: `${description} ${ANSWERED}` },
        ...(queryParams ? { queryParams } : {}),
      }),
    )
    .input(write.input)
    .concat(declaredOutput(write.answer))
    .mutation(async ({ ctx, input }) =>
      batchAnswer(await write.action(ctx.db, ctx.actor, input as z.output<TInput>), ctx.requestId),
    );
}
