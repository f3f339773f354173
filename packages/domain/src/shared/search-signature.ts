import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * A signature of a long search text: which three-letter pieces it holds, as bits of a
 * bloom filter (docs/performance.md, "Search"). A record whose search text is too long for
 * `search_lower` (over 600 bytes) has one in `records.search_signature`, which the indexes a
 * `q` search walks hold: the walk then tests such a record on the index and reads it from the
 * table only when the signature has every bit of the term's pieces.
 *
 * The test never leaves out a record that matches: every piece of the term is a piece of any
 * text that holds the term, and sets the same bit in both. It lets some through that do not
 * (a false positive, then read and tested in full): with 1,024 bits and a 1.7 KB text (about
 * 500 different pieces, 38 % of the bits set), one in 18 for a five-letter term such as
 * `gmail`, one in 50 for six letters, one in 2.6 for three.
 *
 * The pieces are taken from the text as PostgreSQL lower-cases it for the search, without
 * asking PostgreSQL: letters A–Z are lowered, other ASCII characters kept, and every other
 * character is a gap that no piece spans, except the two that lower-case into ASCII (`İ` to
 * `i`, the Kelvin sign `K` to `k`), which count as those letters. So the signature is the same
 * whether it is made from the text as written or as stored, and a term is tested by it only
 * when the term is ASCII, at least three characters long: any other term is tested on the
 * text itself, as before.
 */

/** Bits of a signature (128 bytes). */
export const SIGNATURE_BITS = 1024;

/** Texts of at most this many bytes have `search_lower`, which the walk tests exactly: no signature. */
const SIGNED_FROM_BYTES = 601;

/** Code points that lower-case into an ASCII letter, and that letter. */
const INTO_ASCII = new Map([
  [0x130, 0x69],
  [0x212a, 0x6b],
]);

/** A character as the signature sees it: an ASCII code, lowered, or -1 for a gap. */
function folded(codePoint: number): number {
  if (codePoint >= 0x41 && codePoint <= 0x5a) return codePoint + 0x20;
  if (codePoint < 0x80) return codePoint;
  return INTO_ASCII.get(codePoint) ?? -1;
}

/** The bit of a piece of three characters (FNV-1a over their codes). */
function bitOf(a: number, b: number, c: number): number {
  let hash = 0x811c9dc5;
  for (const code of [a, b, c]) {
    hash ^= code;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % SIGNATURE_BITS;
}

/** The bits of every piece of `text` that spans no gap, each once. */
function bitsOf(text: string): Set<number> {
  const bits = new Set<number>();
  let a = -1;
  let b = -1;
  for (const char of text) {
    const c = folded(char.codePointAt(0) ?? -1);
    if (a >= 0 && b >= 0 && c >= 0) bits.add(bitOf(a, b, c));
    a = b;
    b = c;
  }
  return bits;
}

/**
 * The signature of a record's search text (as written or as stored), or null when the text is
 * short enough for `search_lower`.
 */
export function searchSignature(text: string): Buffer | null {
  if (Buffer.byteLength(text, 'utf8') < SIGNED_FROM_BYTES) return null;
  const signature = Buffer.alloc(SIGNATURE_BITS / 8);
  // Bit n is bit n % 8 of byte n / 8, counted from the lowest, as PostgreSQL's get_bit reads it.
  for (const bit of bitsOf(text)) signature[bit >> 3] = (signature[bit >> 3] ?? 0) | (1 << (bit & 7));
  return signature;
}

/**
 * True for a signature that may belong to a text holding `term`, in any case; undefined when
 * the signature cannot tell (a term under three characters, or not ASCII). A null signature
 * (not known yet) passes.
 */
export function signatureMayHold(signature: SQLWrapper, term: string): SQL | undefined {
  if (!/^[\x20-\x7e]{3,}$/.test(term)) return undefined;
  const bits = [...bitsOf(term)].sort((x, y) => x - y);
  const tests = bits.map((bit) => sql`get_bit(${signature}, ${sql.raw(String(bit))}) = 1`);
  return sql`(${signature} is null or (${sql.join(tests, sql` and `)}))`;
}
