import type { FieldDefinition } from '@crm/db/schema';
import { describe, expect, it } from 'vitest';
import { checkFieldValue, storedFieldValue, validateCustomValues } from '../shared/custom-values.ts';
import { expectDomainErrorSync } from '../testing/fixtures.ts';

/**
 * The string forms n8n, Make and Zapier send for NUMBER, BOOLEAN and DATE values
 * (docs/api.md, "Values from no-code tools"): each accepted one is stored in the field's own
 * form, anything else stays a 400 naming `data.<key>`.
 */
const fields: FieldDefinition[] = [
  { key: 'score', label: 'Score', type: 'NUMBER' },
  { key: 'vip', label: 'VIP', type: 'BOOLEAN' },
  { key: 'since', label: 'Since', type: 'DATE' },
  { key: 'company', label: 'Company', type: 'TEXT' },
];

const store = (key: string, value: unknown) => validateCustomValues(fields, { [key]: value })[key];

function refused(key: string, value: unknown): string {
  const error = expectDomainErrorSync(
    () => validateCustomValues(fields, { [key]: value }),
    'VALIDATION_FAILED',
  );
  expect(error.details).toHaveLength(1);
  expect(error.details?.[0]?.path).toBe(`data.${key}`);
  expect(error.message).toContain(`data.${key}`);
  return error.details?.[0]?.message ?? '';
}

describe('NUMBER from a decimal string', () => {
  const accepted: [string, number][] = [
    ['42', 42],
    ['12.5', 12.5],
    ['-3', -3],
    ['+7', 7],
    ['0', 0],
    ['0.25', 0.25],
    ['007', 7],
    ['-0.5', -0.5],
    ['1234567.89', 1234567.89],
  ];
  for (const [sent, number] of accepted) {
    it(`stores "${sent}" as the number ${number}`, () => {
      const stored = store('score', sent);
      expect(typeof stored).toBe('number');
      expect(stored).toBe(number);
    });
  }

  const refusedForms = [
    '',
    ' ',
    ' 42',
    '42 ',
    '42\n',
    '1e5',
    '1E5',
    '0x10',
    '.5',
    '5.',
    '1,5',
    '1,000',
    '1 000',
    '--1',
    '+-1',
    '12.5.1',
    'NaN',
    'Infinity',
    '-Infinity',
    'forty-two',
    '42abc',
    '١٢', // Arabic-Indic digits are not the ASCII digits the rule means
  ];
  for (const sent of refusedForms) {
    it(`refuses ${JSON.stringify(sent)}`, () => {
      expect(refused('score', sent)).toBe('must be a number');
    });
  }

  it('refuses a decimal string too large to be a finite number', () => {
    expect(refused('score', '9'.repeat(400))).toBe('must be a number');
  });

  it('still takes JSON numbers as they are', () => {
    expect(store('score', 12.5)).toBe(12.5);
    expect(store('score', -3)).toBe(-3);
  });
});

describe('BOOLEAN from "true" / "false"', () => {
  const accepted: [string, boolean][] = [
    ['true', true],
    ['false', false],
    ['TRUE', true],
    ['False', false],
    ['tRuE', true],
  ];
  for (const [sent, bool] of accepted) {
    it(`stores "${sent}" as ${bool}`, () => {
      expect(store('vip', sent)).toBe(bool);
    });
  }

  for (const sent of ['', 'yes', 'no', '1', '0', 'on', 'off', 't', 'f', ' true', 'true ', 'truee', 'null']) {
    it(`refuses ${JSON.stringify(sent)}`, () => {
      expect(refused('vip', sent)).toBe('must be true or false');
    });
  }

  it('refuses numbers, which are not booleans', () => {
    expect(refused('vip', 1)).toBe('must be true or false');
    expect(refused('vip', 0)).toBe('must be true or false');
  });
});

describe('DATE from an ISO 8601 instant', () => {
  const accepted: [string, string][] = [
    ['2026-11-22T23:30:00-05:00', '2026-11-22'],
    ['2026-11-22T23:30:00Z', '2026-11-22'],
    ['2026-11-22T00:30:00+14:00', '2026-11-22'],
    ['2026-11-22T10:15:30.123+01:00', '2026-11-22'], // n8n's $now
    ['2026-11-22T00:00:00.000+01:00', '2026-11-22'], // n8n's $today
    ['2026-11-22T09:15:30.123Z', '2026-11-22'],
    ['2026-11-22T10:15+0100', '2026-11-22'],
    ['2024-02-29T12:00:00Z', '2024-02-29'],
    ['2026-11-22', '2026-11-22'],
  ];
  for (const [sent, day] of accepted) {
    it(`stores "${sent}" as ${day}, the date as written`, () => {
      expect(store('since', sent)).toBe(day);
    });
  }

  const refusedForms = [
    '2026-02-30T10:00:00Z', // not a real day
    '2025-02-29T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T10:60:00Z',
    '2026-11-22T10:00:00', // no offset: not an instant
    '2026-11-22 10:00:00Z',
    '2026-11-22T10:00:00 01:00', // the space form is for query strings only
    '2026-11-22T',
    '2026-11-22Z',
    ' 2026-11-22T10:00:00Z',
    '22/11/2026',
    '2026-1-05',
    'Nov 22, 2026',
    'tomorrow',
    '',
  ];
  for (const sent of refusedForms) {
    it(`refuses ${JSON.stringify(sent)}`, () => {
      expect(refused('since', sent)).toBe('must be a date YYYY-MM-DD');
    });
  }

  it('refuses a timestamp number', () => {
    expect(refused('since', 1795338000000)).toBe('must be a date YYYY-MM-DD');
  });
});

describe('other types are taken as sent', () => {
  it('keeps a decimal, boolean or instant string in a TEXT field a string', () => {
    expect(store('company', '42')).toBe('42');
    expect(store('company', 'true')).toBe('true');
    expect(store('company', '2026-11-22T10:00:00Z')).toBe('2026-11-22T10:00:00Z');
  });

  it('leaves a non-string value to the type check', () => {
    expect(storedFieldValue(fields[0]!, true)).toBe(true);
    expect(storedFieldValue(fields[1]!, 1)).toBe(1);
    expect(storedFieldValue(fields[2]!, null)).toBeNull();
  });
});

describe('validateCustomValues with several values', () => {
  it('stores every lenient form at once and keeps null', () => {
    expect(
      validateCustomValues(fields, {
        score: '42',
        vip: 'true',
        since: '2026-11-22T10:15:30.123+01:00',
        company: 'Acme',
      }),
    ).toEqual({ score: 42, vip: true, since: '2026-11-22', company: 'Acme' });
    expect(validateCustomValues(fields, { score: null })).toEqual({ score: null });
  });

  it('names each field a string form does not fit', () => {
    const error = expectDomainErrorSync(
      () => validateCustomValues(fields, { score: '1e5', vip: 'yes', since: '2026-02-30T10:00:00Z' }),
      'VALIDATION_FAILED',
    );
    expect(error.details).toEqual([
      { path: 'data.score', message: 'must be a number' },
      { path: 'data.vip', message: 'must be true or false' },
      { path: 'data.since', message: 'must be a date YYYY-MM-DD' },
    ]);
  });
});

describe('checkFieldValue keeps judging the stored form', () => {
  // Changing a field's type checks the values already stored; a string there is not a number.
  it('refuses the string forms, which are only read on the way in', () => {
    expect(checkFieldValue(fields[0]!, '42')).toBe('must be a number');
    expect(checkFieldValue(fields[1]!, 'true')).toBe('must be true or false');
    expect(checkFieldValue(fields[2]!, '2026-11-22T10:00:00Z')).toBe('must be a date YYYY-MM-DD');
  });
});
