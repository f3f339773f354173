import { DomainError, isDataRefusal, isRefusal, safeErrorMessage, sqlStateOf } from '@crm/domain';
import { z } from 'zod';

/**
 * A step failure. `permanent` ones (invalid input after rendering, a missing context record, a
 * refused address) fail the run at once: trying again cannot help. The others (a receiver's
 * 5xx, a timeout, a lost database connection) are retried with backoff.
 */
export class StepError extends Error {
  override readonly name = 'StepError';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** Turns whatever a step threw into a StepError with a message fit for the run history. */
export function toStepError(error: unknown): StepError {
  if (error instanceof StepError) return error;
  if (error instanceof z.ZodError) {
    const issues = error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
    return new StepError(`invalid input after rendering templates: ${issues.join('; ')}`, true);
  }
  if (error instanceof DomainError) {
    const details = error.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
    const message =
      details && !error.message.includes(details) ? `${error.message} (${details})` : error.message;
    // Refusals (invalid, not found, forbidden) will not change on a retry; service failures may.
    return new StepError(message, isRefusal(error.code));
  }
  const code = sqlStateOf(error);
  // A statement's text and parameters may hold other data: the history keeps only the code.
  // A value the database cannot store (class 22/23/54) will be refused again on a retry.
  if (code) return new StepError(`the database refused the step (SQLSTATE ${code})`, isDataRefusal(error));
  return new StepError(error instanceof Error ? safeErrorMessage(error.message) : String(error), false);
}
