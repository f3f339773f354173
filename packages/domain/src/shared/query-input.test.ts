import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectDomainErrorSync } from '../testing/fixtures.ts';
import { encodeCursor } from './cursor.ts';
import { pagingInput, resolvePaging } from './paging.ts';
import { instantInput, instantQueryInput, readQueryInstant } from './schemas.ts';

/** What n8n, Make and Zapier put in query strings (docs/api.md, Paging and Requests and responses). */

describe('an empty cursor', () => {
  const paging = z.strictObject({ ...pagingInput });

  it('is read as no cursor by the list inputs', () => {
    expect(paging.parse({ cursor: '' })).toEqual({ cursor: undefined });
    expect(paging.parse({ cursor: '', pageSize: 10 }).cursor).toBeUndefined();
  });

  it('means the first page', () => {
    expect(resolvePaging({ cursor: '' })).toEqual({ kind: 'offset', page: 1, pageSize: 50, offset: 0 });
    expect(resolvePaging({ cursor: '', pageSize: 10 })).toEqual({
      kind: 'offset',
      page: 1,
      pageSize: 10,
      offset: 0,
    });
  });

  it('may go with page, since it is simply absent', () => {
    expect(resolvePaging({ cursor: '', page: 3, pageSize: 10 })).toEqual({
      kind: 'offset',
      page: 3,
      pageSize: 10,
      offset: 20,
    });
  });

  it('leaves a real cursor as it was: keyset paging, and a 400 with page', () => {
    const cursor = encodeCursor({ createdAt: '2026-11-22T10:00:00.000Z', id: 'rec_x' });
    expect(paging.parse({ cursor }).cursor).toBe(cursor);
    expect(resolvePaging({ cursor })).toMatchObject({ kind: 'cursor', after: { id: 'rec_x' } });
    const error = expectDomainErrorSync(() => resolvePaging({ cursor, page: 1 }), 'VALIDATION_FAILED');
    expect(error.details).toEqual([{ path: 'page', message: 'cannot be combined with cursor' }]);
  });

  it('does not make a blank or broken cursor valid', () => {
    for (const cursor of [' ', 'x', '%20']) {
      const error = expectDomainErrorSync(() => resolvePaging({ cursor }), 'VALIDATION_FAILED');
      expect(error.details?.[0]?.path).toBe('cursor');
    }
  });
});

describe('an instant in a query string', () => {
  const accepted: [string, string][] = [
    ['2026-11-22T10:00:00 01:00', '2026-11-22T09:00:00.000Z'],
    ['2026-11-22T10:00:00.123 05:30', '2026-11-22T04:30:00.123Z'],
    ['2026-11-22T10:00:00 0100', '2026-11-22T09:00:00.000Z'],
    ['2026-11-22T10:00:00 00:00', '2026-11-22T10:00:00.000Z'],
    // the usual forms, as in bodies
    ['2026-11-22T10:00:00+01:00', '2026-11-22T09:00:00.000Z'],
    ['2026-11-22T10:00:00-01:00', '2026-11-22T11:00:00.000Z'],
    ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22T10:00:00.5Z', '2026-11-22T10:00:00.500Z'],
  ];
  for (const [sent, utc] of accepted) {
    it(`reads "${sent}" as ${utc}`, () => {
      expect(readQueryInstant(sent)).toBe(utc);
      expect(instantQueryInput().parse(sent)).toBe(utc);
    });
  }

  it('reads an instant without seconds in a filter value, but an instant parameter needs them', () => {
    expect(readQueryInstant('2026-11-22T10:00 01:00')).toBe('2026-11-22T09:00:00.000Z');
    expect(instantQueryInput().safeParse('2026-11-22T10:00 01:00').success).toBe(false);
    expect(instantQueryInput().safeParse('2026-11-22T10:00+01:00').success).toBe(false);
  });

  const refused = [
    '2026-11-22T10:00:00  01:00', // two spaces
    '2026-11-22T10:00:00 1:00',
    '2026-11-22T10:00:00 01',
    '2026-11-22T10:00:00 01:00:00',
    '2026-11-22T10:00:00 24:00', // offsets stay under 24 h
    '2026-11-22T10:00:00 01:60',
    '2026-11-22T10:00:00 Z',
    '2026-11-22T10:00:00 -01:00',
    '2026-11-22T10:00:00 +01:00',
    '2026-11-22T10:00:00 ',
    ' 2026-11-22T10:00:00Z',
    '2026-11-22T10:00:00Z ',
    '2026-11-22 10:00:00 01:00', // only the offset's + may be a space
    '2026-11-22 10:00:00Z',
    '2026-11-22T10 00:00Z',
    '2026-11-22T10:00:00', // no offset at all
    '2026-11-22 01:00',
    '2026-11-22',
    '2026-02-30T10:00:00 01:00',
    '',
  ];
  for (const sent of refused) {
    it(`refuses ${JSON.stringify(sent)}`, () => {
      expect(readQueryInstant(sent)).toBeNull();
      const result = instantQueryInput().safeParse(sent);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        'must be an ISO 8601 instant such as 2026-11-21T09:30:00Z',
      );
    });
  }

  it('is for query strings only: a body instant with a space is still refused', () => {
    expect(instantInput().safeParse('2026-11-22T10:00:00 01:00').success).toBe(false);
    expect(instantInput().parse('2026-11-22T10:00:00+01:00')).toBe('2026-11-22T09:00:00.000Z');
  });
});
