import type { BatchOutcome } from '@crm/domain';
import { z } from 'zod';
import { apiErrorCodes, statusOf, toApiError } from './errors.ts';

const itemErrorOutput = z.object({
  code: z.enum(apiErrorCodes),
  message: z.string(),
  details: z
    .array(
      z.object({
        path: z.string().meta({ description: 'Relative to the item, as the single call names it' }),
        message: z.string(),
      }),
    )
    .optional(),
  requestId: z.string().meta({ description: 'The id of the batch request (X-Request-Id)' }),
});

/** One entry of a batch answer: the item's position, the status the single call would have answered, and the rest. */
function batchEntry<S extends z.ZodRawShape>(statuses: string, rest: S) {
  return z.object({
    index: z.number().int().meta({ description: 'Position of the item in the request' }),
    status: z
      .number()
      .int()
      .meta({ description: `What the single call would have answered: ${statuses}` }),
    ...rest,
  });
}

/**
 * The body of a batch answer: one entry per item, in item order, with the status the single
 * call would have answered and its `data` or its `error`; `meta` counts both kinds.
 */
export function batchEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(
      z.union([
        batchEntry('201 created, 200 otherwise', { data: item }),
        batchEntry('400 invalid, 404 not found', { error: itemErrorOutput }),
      ]),
    ),
    meta: z.object({
      succeeded: z.number().int().meta({ description: 'Items answered with data' }),
      failed: z.number().int().meta({ description: 'Items answered with an error' }),
    }),
  });
}

export type BatchAnswer<T> = {
  data: (
    | { index: number; status: number; data: T }
    | { index: number; status: number; error: z.infer<typeof itemErrorOutput> }
  )[];
  meta: { succeeded: number; failed: number };
};

/**
 * The body of a batch write, on both surfaces: each item's outcome with its index and the
 * status the single call would have answered. A failed item's `error` has the shape of the
 * error body (`code`, `message`, `details` with paths relative to the item) and carries the
 * batch request's id, like an error answered to the whole request.
 */
export function batchAnswer<T>(outcomes: BatchOutcome<T>[], requestId: string): BatchAnswer<T> {
  let failed = 0;
  const data = outcomes.map((outcome, index) => {
    if (outcome.ok) return { index, status: outcome.created ? 201 : 200, data: outcome.data };
    failed++;
    const error = toApiError(outcome.error);
    return {
      index,
      status: statusOf(error),
      error: {
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        requestId,
      },
    };
  });
  return { data, meta: { succeeded: outcomes.length - failed, failed } };
}
