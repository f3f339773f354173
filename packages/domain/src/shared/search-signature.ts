import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * A signature of a long search text: which three-character pieces of its words it holds, as
 * bits of a bloom filter (docs/performance.md, "Search"). A record whose search text is too
 * long for `search_lower` (over 600 bytes) has one in `records.search_signature`, which the
 * indexes a `q` search walks hold: the walk then tests such a record on the index and reads it
 * from the table only when the signature has the bit of every piece of the term.
 *
 * The test never leaves out a record that matches: every piece of the term is a piece of any
 * text that holds the term, and sets the same bit in both. It lets some through that do not
 * (a false positive, then read and tested in full). A piece is three letters or digits in a
 * row: spaces and punctuation, which every text holds around common words, would fill the
 * bits with pieces no term tells apart. With 2,048 bits, 1 to 2 KB of notes set about one bit
 * in six, and most terms of four letters or more go through fewer than one text in 300 that
 * does not hold them; a term whose pieces other words hold goes through more (the rates
 * measured on notes: docs/decisions/0018-search-signatures.md).
 *
 * The pieces are taken from the text as PostgreSQL lower-cases it for the search, without
 * asking PostgreSQL: letters A–Z are lowered, and every other character is a gap that no piece
 * spans, except the two that lower-case into ASCII letters (`İ` to `i`, the Kelvin sign `K` to
 * `k`), which count as those letters. So the signature is the same whether it is made from the
 * text as written or as stored. A term is tested by it only when the term is ASCII and has a
 * piece; any other term is tested on the text itself, as before.
 */

/** Bits of a signature (256 bytes). */
export const SIGNATURE_BITS = 2048;

/** Texts of at most this many bytes have `search_lower`, which the walk tests exactly: no signature. */
const SIGNED_FROM_BYTES = 601;

/** Code points that lower-case into an ASCII letter, and that letter. */
const INTO_ASCII = new Map([
  [0x130, 0x69],
  [0x212a, 0x6b],
]);

/** A character as the signature sees it: the code of an ASCII letter (lowered) or digit, or -1 for a gap. */
function folded(codePoint: number): number {
  if (codePoint >= 0x41 && codePoint <= 0x5a) return codePoint + 0x20;
  if ((codePoint >= 0x61 && codePoint <= 0x7a) || (codePoint >= 0x30 && codePoint <= 0x39)) return codePoint;
  return INTO_ASCII.get(codePoint) ?? -1;
}

/** The bit of a piece of three characters: FNV-1a over their codes, its bits then mixed so that the low ones depend on all. */
function bitOf(a: number, b: number, c: number): number {
  let hash = Math.imul(0x811c9dc5 ^ a, 0x01000193);
  hash = Math.imul(hash ^ b, 0x01000193);
  hash = Math.imul(hash ^ c, 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return (hash >>> 0) % SIGNATURE_BITS;
}

/** Calls `each` with the bit of every piece of `text` (three letters or digits in a row). */
function eachBit(text: string, each: (bit: number) => void): void {
  let a = -1;
  let b = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A surrogate pair is one character, never a letter of a piece.
    if (unit >= 0xd800 && unit <= 0xdbff) i++;
    const c = folded(unit);
    if (a >= 0 && b >= 0 && c >= 0) each(bitOf(a, b, c));
    a = b;
    b = c;
  }
}

/**
 * The signature of a record's search text (as written or as stored), or null when the text is
 * short enough for `search_lower`.
 */
export function searchSignature(text: string): Buffer | null {
  if (Buffer.byteLength(text, 'utf8') < SIGNED_FROM_BYTES) return null;
  const signature = Buffer.alloc(SIGNATURE_BITS / 8);
  // Bit n is bit n % 8 of byte n / 8, counted from the lowest, as PostgreSQL's get_bit reads it.
  eachBit(text, (bit) => {
    signature[bit >> 3] = (signature[bit >> 3] ?? 0) | (1 << (bit & 7));
  });
  return signature;
}

/**
 * True for a signature that may belong to a text holding `term`, in any case; undefined when
 * the signature cannot tell (a term that is not ASCII, or has no three letters or digits in a
 * row). A null signature (not known yet) passes.
 */
export function signatureMayHold(signature: SQLWrapper, term: string): SQL | undefined {
  if (!/^[\x20-\x7e]+$/.test(term)) return undefined;
  const found = new Set<number>();
  eachBit(term, (bit) => found.add(bit));
  const bits = [...found].sort((x, y) => x - y);
  if (bits.length === 0) return undefined;
  const tests = bits.map((bit) => sql`get_bit(${signature}, ${sql.raw(String(bit))}) = 1`);
  return sql`(${signature} is null or (${sql.join(tests, sql` and `)}))`;
}
