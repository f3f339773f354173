import { z } from 'zod';
import { DomainError, invalid } from './errors.ts';
import { isId } from './ids.ts';

/**
 * List cursors (docs/api.md, "Paging"): `meta.nextCursor`, which a client sends back as
 * `cursor` (the event feed's `after`) to read the next page. Each is a JSON array in
 * base64url, opaque to clients; every list writes and reads its cursors through
 * `encodeCursor` and `decodeCursor`, with the format of its order. A format is the array's
 * shape, checked when a cursor comes back, and the 400 a cursor it cannot read answers, as
 * each list has answered it since its cursors were first issued.
 */
export interface CursorFormat<Payload> {
  /** The payload in the array `value`, or undefined when `value` is not one of this format's. */
  read(value: unknown): Payload | undefined;
  /** The array a cursor holding `payload` carries. */
  write(payload: Payload): unknown[];
  /** What a cursor this format cannot read answers: a 400 naming the parameter. */
  refusal(): DomainError;
}

function cursorFormat<Payload, Tuple extends z.ZodType<unknown[]>>(spec: {
  tuple: Tuple;
  read: (tuple: z.output<Tuple>) => Payload;
  write: (payload: Payload) => unknown[];
  refusal: () => DomainError;
}): CursorFormat<Payload> {
  return {
    read(value) {
      const parsed = spec.tuple.safeParse(value);
      return parsed.success ? spec.read(parsed.data) : undefined;
    },
    write: spec.write,
    refusal: spec.refusal,
  };
}

/** Text that `Date.parse` reads as an instant. */
const instantText = z.string().refine((text) => !Number.isNaN(Date.parse(text)));

const NOT_A_CURSOR = 'is not a cursor returned by this API';

/** The last row of a page in (createdAt, id) order, which the next page starts after. */
export interface Keyset {
  createdAt: string;
  id: string;
}

/**
 * Lists in (createdAt, id) order, and lists keyed like them (the history, the audit log,
 * the timeline, a deal's or task's records): `[createdAt, id]`.
 */
export const keysetCursor: CursorFormat<Keyset> = cursorFormat({
  tuple: z.tuple([instantText, z.string()]),
  read: ([createdAt, id]) => ({ createdAt, id }),
  write: (keyset: Keyset) => [keyset.createdAt, keyset.id],
  refusal: () =>
    new DomainError('VALIDATION_FAILED', `cursor ${NOT_A_CURSOR}`, {
      details: [{ path: 'cursor', message: NOT_A_CURSOR }],
    }),
});

/**
 * Lists with a sort and filters of the caller's (records, deals, tasks): `[fingerprint of the
 * sort and filters, the last row's sort value, its id]`. Whether the fingerprint and the
 * value fit the list asked is for the list to judge (list-sort.ts).
 */
export interface SortedKey {
  print: unknown;
  value: unknown;
  id: string;
}

export const sortedCursor: CursorFormat<SortedKey> = cursorFormat({
  tuple: z.tuple([z.unknown(), z.unknown(), z.string()]),
  read: ([print, value, id]) => ({ print, value, id }),
  write: (key: SortedKey) => [key.print, key.value, key.id],
  refusal: () => invalid('cursor', NOT_A_CURSOR),
});

/** Tasks by `sort=dueAt` (soonest first, none last): `['dueAt', dueAt or null, id]`. */
export interface DueKey {
  dueAt: string | null;
  id: string;
}

export const dueCursor: CursorFormat<DueKey> = cursorFormat({
  tuple: z.tuple([z.literal('dueAt'), instantText.nullable(), z.string()]),
  read: ([, dueAt, id]) => ({ dueAt, id }),
  write: (key: DueKey) => ['dueAt', key.dueAt, key.id],
  refusal: () => invalid('cursor', `${NOT_A_CURSOR} for sort=dueAt`),
});

/** The event feed (`after`), oldest first: `[occurredAt, event id]`. */
export interface FeedKey {
  occurredAt: string;
  id: string;
}

export const feedCursor: CursorFormat<FeedKey> = cursorFormat({
  tuple: z.tuple([instantText, z.string().refine((id) => isId('event', id))]),
  read: ([occurredAt, id]) => ({ occurredAt: new Date(occurredAt).toISOString(), id }),
  write: (key: FeedKey) => [key.occurredAt, key.id],
  refusal: () => invalid('after', NOT_A_CURSOR),
});

/** A cursor holding `payload` in `format` (the (createdAt, id) format unless given). */
export function encodeCursor(payload: Keyset): string;
export function encodeCursor<Payload>(payload: Payload, format: CursorFormat<Payload>): string;
export function encodeCursor(
  payload: unknown,
  format: CursorFormat<unknown> = keysetCursor as never,
): string {
  return Buffer.from(JSON.stringify(format.write(payload))).toString('base64url');
}

/**
 * The payload of a cursor in `format` (the (createdAt, id) format unless given), or the
 * format's 400 for text that is not a cursor of that format: not base64url JSON, another
 * list's, or altered.
 */
export function decodeCursor(cursor: string): Keyset;
export function decodeCursor<Payload>(cursor: string, format: CursorFormat<Payload>): Payload;
export function decodeCursor(cursor: string, format: CursorFormat<unknown> = keysetCursor as never): unknown {
  let payload: unknown;
  try {
    payload = format.read(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    payload = undefined;
  }
  if (payload === undefined) throw format.refusal();
  return payload;
}
