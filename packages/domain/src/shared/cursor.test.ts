import { describe, expect, it } from 'vitest';
import { expectDomainErrorSync } from '../testing/fixtures.ts';
import { decodeCursor, dueCursor, encodeCursor, feedCursor, keysetCursor, sortedCursor } from './cursor.ts';
import { newId } from './ids.ts';

const text = (array: unknown[]) => Buffer.from(JSON.stringify(array)).toString('base64url');
const eventId = newId('event');

describe('a cursor', () => {
  it('is the JSON array of its format in base64url, which clients already hold', () => {
    expect(encodeCursor({ createdAt: '2026-11-22T10:00:00.000Z', id: 'rec_x' })).toBe(
      text(['2026-11-22T10:00:00.000Z', 'rec_x']),
    );
    expect(encodeCursor({ print: 'a1', value: 12, id: 'deal_x' }, sortedCursor)).toBe(
      text(['a1', 12, 'deal_x']),
    );
    expect(encodeCursor({ dueAt: null, id: 'task_x' }, dueCursor)).toBe(text(['dueAt', null, 'task_x']));
    expect(encodeCursor({ occurredAt: '2026-11-22T10:00:00.000Z', id: eventId }, feedCursor)).toBe(
      text(['2026-11-22T10:00:00.000Z', eventId]),
    );
  });

  it('reads back what it wrote, in each format', () => {
    const keyset = { createdAt: '2026-11-22T10:00:00.000Z', id: 'rec_x' };
    expect(decodeCursor(encodeCursor(keyset))).toEqual(keyset);
    expect(decodeCursor(encodeCursor(keyset, keysetCursor), keysetCursor)).toEqual(keyset);
    const sorted = { print: 'a1', value: { nested: [1] }, id: 'rec_x' };
    expect(decodeCursor(encodeCursor(sorted, sortedCursor), sortedCursor)).toEqual(sorted);
    const due = { dueAt: '2026-11-22T10:00:00.000Z', id: 'task_x' };
    expect(decodeCursor(encodeCursor(due, dueCursor), dueCursor)).toEqual(due);
    // The feed's instant is read back as the database writes it.
    expect(decodeCursor(text(['2026-11-22T10:00:00Z', eventId]), feedCursor)).toEqual({
      occurredAt: '2026-11-22T10:00:00.000Z',
      id: eventId,
    });
  });

  it("answers each list's own 400 for what is not one of its cursors", () => {
    const refused = (run: () => unknown) => {
      const error = expectDomainErrorSync(run, 'VALIDATION_FAILED');
      return { message: error.message, details: error.details };
    };
    const notBase64Json = 'not a cursor';
    expect(refused(() => decodeCursor(notBase64Json))).toEqual({
      message: 'cursor is not a cursor returned by this API',
      details: [{ path: 'cursor', message: 'is not a cursor returned by this API' }],
    });
    expect(refused(() => decodeCursor(text(['yesterday', 'rec_x'])))).toMatchObject({
      message: 'cursor is not a cursor returned by this API',
    });
    expect(refused(() => decodeCursor(text(['a1', 1]), sortedCursor))).toEqual({
      message: 'cursor: is not a cursor returned by this API',
      details: [{ path: 'cursor', message: 'is not a cursor returned by this API' }],
    });
    expect(refused(() => decodeCursor(text(['2026-11-22T10:00:00.000Z', 'task_x']), dueCursor))).toEqual({
      message: 'cursor: is not a cursor returned by this API for sort=dueAt',
      details: [{ path: 'cursor', message: 'is not a cursor returned by this API for sort=dueAt' }],
    });
    expect(refused(() => decodeCursor(text(['2026-11-22T10:00:00.000Z', 'rec_x']), feedCursor))).toEqual({
      message: 'after: is not a cursor returned by this API',
      details: [{ path: 'after', message: 'is not a cursor returned by this API' }],
    });
  });

  it('refuses an array of another length', () => {
    expectDomainErrorSync(
      () => decodeCursor(text(['2026-11-22T10:00:00.000Z', 'rec_x', 'more'])),
      'VALIDATION_FAILED',
    );
    expectDomainErrorSync(
      () => decodeCursor(text(['a1', 1, 'rec_x', 'more']), sortedCursor),
      'VALIDATION_FAILED',
    );
    expectDomainErrorSync(() => decodeCursor(text(['dueAt', null]), dueCursor), 'VALIDATION_FAILED');
  });
});
