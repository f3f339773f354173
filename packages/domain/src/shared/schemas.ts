import { z } from 'zod';
import { actorTypes } from './actor.ts';

/**
 * Shared zod pieces. Input objects are strict (unknown keys are a 400: docs/api.md, "Requests
 * and responses").
 */

/**
 * Text that must hold more than blanks: at most `max` characters as sent, then trimmed, and
 * not empty. The document states it as `minLength`, `maxLength` and the pattern `\S`
 * (docs/api.md, "Limits in the document"); only one problem is reported for a blank value.
 * The length is the length sent, so a value the document allows is never refused, nor the
 * reverse.
 */
export const nonBlankText = (max: number, tooLong?: string) =>
  z
    .string()
    .max(max, tooLong)
    .trim()
    .min(1, { message: 'must not be empty', abort: true })
    .regex(/\S/, 'must not be empty');

/** Optional text stored trimmed; `max` counts the characters as sent, as `maxLength` does. */
export const trimmedText = (max: number) => z.string().max(max).trim();

const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))$/i;

/** Shape and ranges: a real calendar day, hours < 24, minutes and seconds < 60, offset < 24 h. */
export function isInstant(value: string): boolean {
  const m = INSTANT.exec(value);
  if (!m) return false;
  const [, day, hh, mm, ss, , , oh, om] = m;
  const inRange = (v: string | undefined, max: number) => v === undefined || Number(v) < max;
  return (
    day !== undefined &&
    isRealDate(day) &&
    inRange(hh, 24) &&
    inRange(mm, 60) &&
    inRange(ss, 60) &&
    inRange(oh, 24) &&
    inRange(om, 60) &&
    !Number.isNaN(Date.parse(value))
  );
}

/**
 * The instants a request may send: RFC 3339 date-times, seconds and a `Z` or an offset
 * required (docs/api.md, "Requests and responses"). The document states them as
 * `format: date-time` and this pattern, which a real day completes. The pattern keeps hours,
 * minutes and seconds in range, so it also refuses the leap second (`23:59:60`) that
 * `date-time` allows and a JavaScript date cannot hold.
 */
const INSTANT_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}[Tt]([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,9})?([Zz]|[+-]([01]\\d|2[0-3]):?[0-5]\\d)$';
const HAS_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/i;

/** An instant with seconds (`isInstant`, seconds required). */
function isRequestInstant(value: string): boolean {
  return HAS_SECONDS.test(value) && isInstant(value);
}

/** An RFC 3339 instant (milliseconds optional, `Z` or an offset); normalised to UTC with milliseconds. */
export const instantInput = () =>
  z
    .string()
    .refine(isRequestInstant, 'must be an ISO 8601 instant such as 2026-11-21T09:30:00Z')
    .transform((value) => new Date(value).toISOString())
    .meta({ format: 'date-time', pattern: INSTANT_PATTERN });

const QUERY_SPACE_OFFSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?) (\d{2}:?\d{2})$/i;

/**
 * An instant as sent in a query string. A `+` left unencoded in a URL is read back as a space,
 * so `?updatedSince=2026-11-22T10:00:00+01:00` arrives as `2026-11-22T10:00:00 01:00`: one space
 * right after the time, followed by `hh:mm` or `hhmm`, is read as that `+` offset. A space
 * anywhere else stays invalid. Returns the instant in UTC with milliseconds, or null.
 */
export function readQueryInstant(value: string): string | null {
  const instant = value.replace(QUERY_SPACE_OFFSET, '$1+$2');
  return isInstant(instant) ? new Date(instant).toISOString() : null;
}

/**
 * `instantInput` for query parameters: also takes the offset whose `+` became a space (see
 * `readQueryInstant`). Bodies keep `instantInput`, where a space is never a `+`.
 */
export const instantQueryInput = () =>
  z
    .string()
    .refine(
      (value) => HAS_SECONDS.test(value) && readQueryInstant(value) !== null,
      'must be an ISO 8601 instant such as 2026-11-21T09:30:00Z',
    )
    .transform((value) => readQueryInstant(value) as string)
    .meta({ format: 'date-time', pattern: INSTANT_PATTERN });

/** Output instants: always written with milliseconds and Z. */
export const instantOutput = () =>
  z.string().meta({ format: 'date-time', example: '2026-11-21T09:30:00.000Z' });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day `YYYY-MM-DD` that exists; the document says so with `format: date`. */
export const dateOnly = () =>
  z
    .string()
    .regex(DATE_ONLY, 'must be a date YYYY-MM-DD')
    .refine(isRealDate, 'must be a date that exists')
    .meta({ format: 'date' });

export function isRealDate(value: string): boolean {
  if (!DATE_ONLY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** An id path or query parameter. Shape is not checked here: a malformed id is a 404, not a 400. */
/** A custom field's key, the name of its value inside a record's `data` (docs/api.md, "Folders"). */
export const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

export const idParam = (description: string) => z.string().max(200).meta({ description });

export const envelope = <T extends z.ZodType>(item: T) => z.object({ data: item });

export const pageMeta = z
  .object({
    page: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Page number when paging by `page`; null when paging by cursor.' }),
    pageSize: z.number().int(),
    hasMore: z.boolean(),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `cursor` to get the next page; null on the last page.' }),
    nextUrl: z.string().nullable().meta({
      description:
        'The absolute URL of the next page (this URL with `cursor` set to `nextCursor`, the `Link: rel="next"` target); null on the last page, and over tRPC.',
      example: 'https://crm.example.com/api/v1/records?pageSize=50&cursor=eyJ2IjoxfQ',
    }),
  })
  .meta({ id: 'PageMeta' });

/** Body of a permanent DELETE: `{ data: { id, deleted: true } }` (docs/api.md, "Deals", "Tasks"). */
export const deletedOutput = z
  .object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) })
  .meta({ id: 'Deleted' });

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: pageMeta });

export function toInstant(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** Who made a change, as history, events and the audit log name it (docs/api.md, "History and provenance"). */
export const actorOutput = z
  .object({
    type: z.enum(actorTypes).meta({
      description:
        '`user` (the web app), `apiKey`, `workflow` (a run), `import` (the web app’s CSV import), `mcp` (an agent), `system` (the service itself), `job` (an import, export or update job: docs/jobs.md), `app` (an OAuth app acting for a user on the REST API: docs/apps.md).',
    }),
    id: z.string().meta({
      description: 'The user, key, run (run_…), job or OAuth app (its client id) that made the change.',
    }),
    name: z.string().meta({ description: 'Its name when the change was made.' }),
  })
  .meta({ id: 'Actor' });
