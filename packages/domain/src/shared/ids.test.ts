import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeIdBytes, type IdKind, idPrefixes, isId, newId } from './ids.ts';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Reads the 48-bit millisecond timestamp a UUIDv7 suffix starts with (its first 10 base32 characters). */
function timeOf(id: string): number {
  const suffix = id.slice(id.indexOf('_') + 1);
  let value = 0;
  for (const char of suffix.slice(0, 10)) value = value * 32 + ALPHABET.indexOf(char);
  return value;
}

const kinds = Object.keys(idPrefixes) as IdKind[];

afterEach(() => {
  vi.useRealTimers();
});

describe('newId', () => {
  it.each(kinds)('gives a %s id of its prefix and a 26-character base32 suffix', (kind) => {
    const id = newId(kind);
    expect(id).toMatch(new RegExp(`^${idPrefixes[kind]}_[0-7][0-9a-hjkmnp-tv-z]{25}$`));
    expect(isId(kind, id)).toBe(true);
  });

  it('stamps time-ordered ids with the current Unix milliseconds', () => {
    const before = Date.now();
    const id = newId('record');
    const after = Date.now();
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(after);
  });

  it('keeps ids generated in a tight loop in creation order when sorted as strings', () => {
    const ids = Array.from({ length: 5000 }, () => newId('record'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('sorts ids of a later millisecond after earlier ones', () => {
    // The clock is moved on rather than waited for (vi.setSystemTime sets what Date.now answers).
    vi.useFakeTimers({ now: Date.now() });
    const first = newId('deal');
    vi.setSystemTime(Date.now() + 3);
    const second = newId('deal');
    expect(timeOf(second)).toBeGreaterThan(timeOf(first));
    expect(first < second).toBe(true);
  });

  it('makes workflow ids fully random: no time prefix, no ordering', () => {
    const before = Date.now();
    const ids = Array.from({ length: 200 }, () => newId('workflow'));
    const after = Date.now();
    for (const id of ids) {
      expect(isId('workflow', id)).toBe(true);
      const time = timeOf(id);
      expect(time >= before - 86_400_000 && time <= after + 86_400_000).toBe(false);
    }
    expect(new Set(ids.map((id) => id.slice(3, 13))).size).toBe(ids.length);
    expect([...ids].sort()).not.toEqual(ids);
  });

  it('carries the UUIDv7 version in time-ordered ids only', () => {
    // Bits 48-51 of the UUID (the version, 7) sit in the 11th suffix character with one more bit.
    const versionChar = (id: string) => id.slice(id.indexOf('_') + 1)[10];
    for (let i = 0; i < 50; i++) expect(['e', 'f']).toContain(versionChar(newId('task')));
    const workflowChars = new Set(Array.from({ length: 200 }, () => versionChar(newId('workflow'))));
    expect(workflowChars.size).toBeGreaterThan(2);
  });
});

describe('isId', () => {
  const record = newId('record');
  const suffix = record.slice(4);

  it('refuses an id of another prefix', () => {
    expect(isId('folder', record)).toBe(false);
    expect(isId('record', `fld_${suffix}`)).toBe(false);
    expect(isId('record', `REC_${suffix}`)).toBe(false);
    // `note_` and `no_` share letters, but the prefix must be exact.
    expect(isId('comment', `not_${suffix}`)).toBe(false);
  });

  it.each([
    ['too short', `rec_${suffix.slice(1)}`],
    ['too long', `rec_${suffix}0`],
    ['upper case', `rec_${suffix.toUpperCase()}`],
    ['a letter outside the alphabet (i, l, o, u)', `rec_${suffix.slice(0, 25)}u`],
    ['a first character above 7 (over 128 bits)', `rec_8${suffix.slice(1)}`],
    ['no separator', `rec${suffix}`],
    ['a padded suffix', ` rec_${suffix}`],
    ['an empty suffix', 'rec_'],
  ])('refuses a malformed suffix: %s', (_why, value) => {
    expect(isId('record', value)).toBe(false);
  });

  it('refuses values that are not strings', () => {
    expect(isId('record', undefined)).toBe(false);
    expect(isId('record', null)).toBe(false);
    expect(isId('record', 42)).toBe(false);
    expect(isId('record', { id: record })).toBe(false);
  });
});

describe('encodeIdBytes', () => {
  /** The reference: the 16 bytes read as one 128-bit number, written in base32 from the top. */
  const reference = (bytes: Uint8Array) => {
    let value = 0n;
    for (const byte of bytes) value = (value << 8n) | BigInt(byte);
    let out = '';
    for (let i = 0; i < 26; i++) {
      out = ALPHABET[Number(value & 31n)] + out;
      value >>= 5n;
    }
    return out;
  };

  it('writes 16 bytes as the 128-bit number they make, five bits a character from the top', () => {
    const cases = [
      new Uint8Array(16),
      new Uint8Array(16).fill(0xff),
      Uint8Array.from({ length: 16 }, (_, i) => i),
    ];
    for (let n = 0; n < 2000; n++) cases.push(randomBytes(16));
    for (const bytes of cases) expect(encodeIdBytes(bytes)).toBe(reference(bytes));
    expect(encodeIdBytes(new Uint8Array(16).fill(0xff))).toBe('7zzzzzzzzzzzzzzzzzzzzzzzzz');
  });
});
