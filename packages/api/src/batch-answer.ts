import type { BatchAnswer, BatchOutcome } from '@crm/domain';
import { statusOf, toDomainError } from './errors.ts';

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
    const error = toDomainError(outcome.error);
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
