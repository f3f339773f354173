import { DomainError } from '@crm/domain';
import { describe, expect, it } from 'vitest';
import { assertStorableInput, findUnstorable, MAX_INPUT_DEPTH } from './storable-input.ts';

const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('input that cannot be stored', () => {
  it('accepts ordinary JSON, surrogate pairs and nesting up to the limit', () => {
    expect(findUnstorable({ title: 'Ada 😀', n: 1e308, list: [true, null, 'x'], data: {} })).toEqual([]);
    expect(findUnstorable(nested(MAX_INPUT_DEPTH))).toEqual([]);
    expect(findUnstorable('plain')).toEqual([]);
    expect(findUnstorable(undefined)).toEqual([]);
  });

  it('names the path of NUL and lone surrogates in values and keys', () => {
    expect(findUnstorable({ title: 'a\u0000b', data: { notes: ['ok', 'x\ud800'] } })).toEqual([
      { path: 'title', message: 'must not contain the NUL character (\\u0000)' },
      { path: 'data.notes.1', message: 'must not contain a lone UTF-16 surrogate (half of a character)' },
    ]);
    expect(findUnstorable({ data: { 'a\u0000b': 1, '\udc00': 2 } })).toEqual([
      { path: 'data.a\\u0000b', message: 'must not contain the NUL character (\\u0000) in a key' },
      {
        path: 'data.\\udc00',
        message: 'must not contain a lone UTF-16 surrogate (half of a character) in a key',
      },
    ]);
    expect(findUnstorable('\u0000')).toEqual([{ path: '', message: expect.stringContaining('NUL') }]);
  });

  it('refuses __proto__ keys, which JavaScript objects would drop silently', () => {
    expect(findUnstorable(JSON.parse('{"data":{"__proto__":{"x":1}}}'))).toEqual([
      { path: 'data.__proto__', message: 'is not accepted as a key' },
    ]);
    // Other names of Object.prototype are ordinary keys.
    expect(findUnstorable({ constructor: 'x', toString: 'y' })).toEqual([]);
  });

  it('refuses numbers JSON parsed to Infinity', () => {
    expect(findUnstorable(JSON.parse('{"amount":1e400}'))).toEqual([
      { path: 'amount', message: 'is a number too large to store' },
    ]);
  });

  it('refuses nesting beyond the limit without recursing, even 20,000 levels deep', () => {
    const [problem] = findUnstorable(nested(MAX_INPUT_DEPTH + 1));
    expect(problem!.path).toBe(Array(MAX_INPUT_DEPTH).fill('a').join('.'));
    expect(problem!.message).toBe(`nests deeper than ${MAX_INPUT_DEPTH} levels of objects and arrays`);
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    expect(findUnstorable(deep)).toHaveLength(1);
  });

  it('lists at most 10 problems', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, '\u0000']));
    expect(findUnstorable(many)).toHaveLength(10);
  });

  it('throws a 400 VALIDATION_FAILED with the details', () => {
    expect(() => assertStorableInput({ a: 'ok' })).not.toThrow();
    try {
      assertStorableInput({ name: 'x\u0000' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'Invalid request: name must not contain the NUL character (\\u0000)',
        details: [{ path: 'name', message: 'must not contain the NUL character (\\u0000)' }],
      });
    }
  });
});
