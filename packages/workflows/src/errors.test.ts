import { DomainError } from '@crm/domain';
import { describe, expect, it } from 'vitest';
import { toStepError } from './errors.ts';

describe('toStepError', () => {
  it('keeps only the SQLSTATE of a failed statement, never its text or parameters', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "records_pkey"'), {
      code: '23505',
    });
    const failed = new Error(
      'Failed query: insert into "records" values ($1, $2)\nparams: rec_1,whsec_secret',
      {
        cause,
      },
    );
    const step = toStepError(failed);
    expect(step.message).toBe('the database refused the step (SQLSTATE 23505)');
    expect(step.permanent).toBe(true);
    expect(toStepError(Object.assign(new Error('gone'), { code: '57P01' })).permanent).toBe(false);
  });

  it('keeps a domain error’s message and details, permanent for a 4xx', () => {
    const step = toStepError(
      new DomainError('VALIDATION_FAILED', 'Invalid', {
        details: [{ path: 'title', message: 'is required' }],
      }),
    );
    expect(step.message).toBe('Invalid (title: is required)');
    expect(step.permanent).toBe(true);
  });

  it('keeps the message of other failures, such as a refused connection', () => {
    expect(toStepError(new Error('connect ECONNREFUSED 127.0.0.1:9')).message).toBe(
      'connect ECONNREFUSED 127.0.0.1:9',
    );
  });
});
