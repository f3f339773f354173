import type { FieldDefinition } from '@crm/db/schema';
import { describe, expect, it } from 'vitest';
import { expectDomainErrorSync } from '../testing/fixtures.ts';
import { checkFieldValue, validateCustomValues } from './custom-values.ts';

const field = (type: FieldDefinition['type'], options?: string[]): FieldDefinition =>
  options ? { key: 'f', label: 'F', type, options } : { key: 'f', label: 'F', type };

const cases: { type: FieldDefinition['type']; options?: string[]; good: unknown[]; bad: unknown[] }[] = [
  { type: 'TEXT', good: ['', 'Ada', 'x'.repeat(10_000)], bad: [1, true, null, ['a'], 'x'.repeat(10_001)] },
  {
    type: 'SELECT',
    options: ['Lead', 'Customer'],
    good: ['Lead', 'Customer'],
    bad: ['lead', 'Churned', '', ['Lead'], 1],
  },
  { type: 'NUMBER', good: [0, -3, 2.5, 1e9], bad: ['5', Number.NaN, Number.POSITIVE_INFINITY, true, null] },
  { type: 'BOOLEAN', good: [true, false], bad: ['true', 0, 1, null] },
  {
    type: 'DATE',
    good: ['2026-02-28', '2024-02-29', '2026-12-31'],
    bad: ['2026-02-30', '2025-02-29', '2026-13-01', '2026-1-05', '2026-01-05T00:00:00Z', 20260105, ''],
  },
  {
    type: 'EMAIL',
    good: ['ada@example.com', 'a.b+c@sub.example.org'],
    bad: ['ada', 'ada@', '@example.com', 'ada example@x.com', 5],
  },
  {
    type: 'URL',
    good: ['https://example.com', 'http://example.com/a?b=c#d'],
    bad: ['example.com', 'ftp://example.com', 'javascript:alert(1)', `https://x.com/${'a'.repeat(2048)}`, 1],
  },
  {
    type: 'MULTI_SELECT',
    options: ['a', 'b', 'c'],
    good: [[], ['a'], ['c', 'a']],
    bad: [['a', 'a'], ['d'], 'a', [1], [null]],
  },
];

describe('checkFieldValue', () => {
  for (const { type, options, good, bad } of cases) {
    it(`accepts valid ${type} values`, () => {
      for (const value of good)
        expect(checkFieldValue(field(type, options), value), String(value)).toBeNull();
    });

    it(`refuses invalid ${type} values with a message`, () => {
      for (const value of bad) {
        expect(checkFieldValue(field(type, options), value), JSON.stringify(value)).toEqual(
          expect.any(String),
        );
      }
    });
  }

  it('names the allowed options of a SELECT in its message', () => {
    expect(checkFieldValue(field('SELECT', ['Lead', 'Customer']), 'x')).toBe(
      'must be one of: Lead, Customer',
    );
  });
});

describe('validateCustomValues', () => {
  const fields: FieldDefinition[] = [
    { key: 'company', label: 'Company', type: 'TEXT' },
    { key: 'score', label: 'Score', type: 'NUMBER' },
    { key: 'tags', label: 'Tags', type: 'MULTI_SELECT', options: ['a', 'b'] },
  ];

  it('returns the values to store, keeping null so an update can remove a key', () => {
    expect(validateCustomValues(fields, { company: 'Acme', score: 3, tags: null })).toEqual({
      company: 'Acme',
      score: 3,
      tags: null,
    });
  });

  it('names an unknown key as data.<key>', () => {
    const error = expectDomainErrorSync(
      () => validateCustomValues(fields, { compnay: 'Acme' }),
      'VALIDATION_FAILED',
    );
    expect(error.details).toEqual([{ path: 'data.compnay', message: 'is not a field of this folder' }]);
    expect(error.message).toContain('data.compnay');
  });

  it('reports every problem at once, each with its path', () => {
    const error = expectDomainErrorSync(
      () =>
        validateCustomValues(fields, { company: 7, score: 'high', tags: ['a', 'a'], nope: 1, other: null }),
      'VALIDATION_FAILED',
    );
    expect(error.details?.map((d) => d.path).sort()).toEqual([
      'data.company',
      'data.nope',
      'data.other',
      'data.score',
      'data.tags',
    ]);
  });

  it('refuses keys that only exist on Object.prototype', () => {
    const error = expectDomainErrorSync(
      () => validateCustomValues(fields, JSON.parse('{"__proto__": {"x": 1}, "toString": "x"}')),
      'VALIDATION_FAILED',
    );
    expect(error.details?.map((d) => d.path).sort()).toEqual(['data.__proto__', 'data.toString']);
  });
});
