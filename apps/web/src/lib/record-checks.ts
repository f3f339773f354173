/**
 * The checks `POST /records` makes of a record's values, in the browser: the CSV import's
 * preview judges each value with them before anything is sent. They give the messages the
 * server gives, under the same paths (`title`, `email`, `data.score`); a test
 * (apps/server/src/web-app/record-checks.test.ts) holds them to the server's own checks, value
 * for value. The server still judges every row the import sends.
 */

/** A custom field as a folder describes it (`folders.list`). */
export interface FieldLike {
  key: string;
  type: string;
  options?: string[] | undefined;
}

export interface ValueProblem {
  path: string;
  message: string;
}

const MAX_TEXT = 10_000;
const MAX_TITLE = 500;
const MAX_EMAIL = 320;
const MAX_PHONE = 64;
/** The address form the server takes (zod's `z.email()`). */
const EMAIL =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;
const TRUE_OR_FALSE = /^(?:true|false)$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))$/i;

const tooLong = (max: number) => `Too big: expected string to have <=${max} characters`;

export function isRealDate(value: string): boolean {
  if (!DATE_ONLY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function isInstant(value: string): boolean {
  const m = INSTANT.exec(value);
  if (!m) return false;
  const [, day, hh, mm, ss, , , oh, om] = m;
  const inRange = (v: string | undefined, max: number) => v === undefined || Number(v) < max;
  return (
    isRealDate(day!) &&
    inRange(hh, 24) &&
    inRange(mm, 60) &&
    inRange(ss, 60) &&
    inRange(oh, 24) &&
    inRange(om, 60) &&
    !Number.isNaN(Date.parse(value))
  );
}

function isWebUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The stored form of a value sent as text (docs/api.md, "Values from no-code tools"). */
export function storedFieldValue(field: FieldLike, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  switch (field.type) {
    case 'NUMBER':
      return DECIMAL.test(value) ? Number(value) : value;
    case 'BOOLEAN':
      return TRUE_OR_FALSE.test(value) ? value.toLowerCase() === 'true' : value;
    case 'DATE':
      return isInstant(value) ? value.slice(0, 10) : value;
    default:
      return value;
  }
}

/** Why a (stored-form) value does not fit its field, or null. */
export function checkFieldValue(field: FieldLike, value: unknown): string | null {
  const options = field.options ?? [];
  switch (field.type) {
    case 'TEXT':
      return typeof value === 'string' && value.length <= MAX_TEXT
        ? null
        : `must be text of at most ${MAX_TEXT} characters`;
    case 'NUMBER':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'BOOLEAN':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'DATE':
      return typeof value === 'string' && isRealDate(value) ? null : 'must be a date YYYY-MM-DD';
    case 'EMAIL':
      return typeof value === 'string' && EMAIL.test(value) ? null : 'must be an email address';
    case 'URL':
      return typeof value === 'string' && isWebUrl(value) ? null : 'must be an http or https URL';
    case 'SELECT':
      return typeof value === 'string' && options.includes(value)
        ? null
        : `must be one of: ${options.join(', ')}`;
    case 'MULTI_SELECT': {
      const ok =
        Array.isArray(value) &&
        value.every((v) => typeof v === 'string' && options.includes(v)) &&
        new Set(value).size === value.length;
      return ok ? null : `must be a list of distinct values from: ${options.join(', ')}`;
    }
    default:
      return null;
  }
}

/** A record's values as a create sends them. */
export interface RecordValues {
  title?: string | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  data?: Record<string, unknown> | undefined;
}

/**
 * What the server would refuse in a new record's values, each problem with its path, as
 * `POST /records` names it; an empty list when it would take them. Folder and owner are not
 * judged here (the import always sends the open folder and no owner).
 */
export function recordProblems(fields: FieldLike[], values: RecordValues): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const title = values.title ?? '';
  if (title.length > MAX_TITLE) problems.push({ path: 'title', message: tooLong(MAX_TITLE) });
  else if (!/\S/.test(title)) problems.push({ path: 'title', message: 'must not be empty' });
  if (typeof values.email === 'string' && (values.email.length > MAX_EMAIL || !EMAIL.test(values.email))) {
    problems.push({ path: 'email', message: 'must be an email address' });
  }
  if (typeof values.phone === 'string' && values.phone.length > MAX_PHONE) {
    problems.push({ path: 'phone', message: tooLong(MAX_PHONE) });
  }
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const [key, value] of Object.entries(values.data ?? {})) {
    const field = byKey.get(key);
    if (!field) {
      problems.push({ path: `data.${key}`, message: 'is not a field of this folder' });
      continue;
    }
    if (value === null) continue;
    const problem = checkFieldValue(field, storedFieldValue(field, value));
    if (problem) problems.push({ path: `data.${key}`, message: problem });
  }
  return problems;
}

/** Problems as one line: `title must not be empty; data.score must be a number`. */
export function describeProblems(problems: ValueProblem[]): string {
  return problems.map((p) => `${p.path} ${p.message}`).join('; ');
}
