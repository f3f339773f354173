import { randomFillSync } from 'node:crypto';
import { missing } from './missing.ts';

/**
 * Identifiers are `<prefix>_<suffix>` (docs/api.md, "Requests and responses"). The suffix is a
 * TypeID-style base32 encoding of 128 bits: a UUIDv7 (time-sortable) for most resources, 128
 * random bits for workflows, whose URL is their only secret.
 */
export const idPrefixes = {
  workspace: 'ws',
  user: 'usr',
  apiKey: 'key',
  folder: 'fld',
  record: 'rec',
  comment: 'note',
  call: 'call',
  pipeline: 'pl',
  stage: 'st',
  deal: 'deal',
  task: 'task',
  workflow: 'wf',
  invitation: 'inv',
  run: 'run',
  webhook: 'wh',
  event: 'evt',
  delivery: 'dlv',
  attempt: 'att',
  view: 'view',
  relation: 'rel',
  history: 'hst',
  audit: 'aud',
  job: 'job',
} as const;

export type IdKind = keyof typeof idPrefixes;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const SUFFIX = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/**
 * Encodes 16 bytes as 26 base32 characters (the first carries only 3 bits), five bits at a
 * time from the last byte: the same characters as reading the bytes as one 128-bit number.
 */
export function encodeIdBytes(bytes: Uint8Array): string {
  const out = new Array<string>(26);
  let bits = 0;
  let held = 0;
  let at = 25;
  for (let i = 15; i >= 0; i--) {
    held |= (bytes[i] ?? missing('bytes[i]')) << bits;
    bits += 8;
    while (bits >= 5) {
      out[at--] = ALPHABET[held & 31] ?? missing('ALPHABET[held & 31]');
      held >>>= 5;
      bits -= 5;
    }
  }
  out[0] = ALPHABET[held & 31] ?? missing('ALPHABET[held & 31]');
  return out.join('');
}

/**
 * Random bytes are taken from a pool filled 4 KiB at a time by the system's secure
 * generator, each byte handed out once: a write that makes a hundred ids (a batch, its
 * events) asks the generator once instead of a hundred times.
 */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

function randomBytes16(): Uint8Array {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const bytes = pool.slice(poolAt, poolAt + 16);
  poolAt += 16;
  return bytes;
}

let lastMillis = 0;
let sequence = 0;

/** A UUIDv7: 48 bits of Unix milliseconds, version, 12 bits that keep ids of one millisecond ordered, variant, random. */
function uuidv7(): Uint8Array {
  const bytes = randomBytes16();
  let millis = Date.now();
  if (millis <= lastMillis) {
    sequence++;
    if (sequence > 0xfff) {
      lastMillis++;
      sequence = 0;
    }
    millis = lastMillis;
  } else {
    lastMillis = millis;
    sequence = 0;
  }
  bytes[0] = Math.floor(millis / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(millis / 2 ** 32) & 0xff;
  bytes[2] = (millis >>> 24) & 0xff;
  bytes[3] = (millis >>> 16) & 0xff;
  bytes[4] = (millis >>> 8) & 0xff;
  bytes[5] = millis & 0xff;
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = ((bytes[8] ?? missing('bytes[8]')) & 0x3f) | 0x80;
  return bytes;
}

export function newId(kind: IdKind): string {
  const bytes = kind === 'workflow' ? randomBytes16() : uuidv7();
  return `${idPrefixes[kind]}_${encodeIdBytes(bytes)}`;
}

/** True when `value` has the shape of an id of that kind; anything else is simply not found. */
export function isId(kind: IdKind, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const prefix = idPrefixes[kind];
  return (
    value.length === prefix.length + 27 &&
    value.startsWith(`${prefix}_`) &&
    SUFFIX.test(value.slice(prefix.length + 1))
  );
}
