import { DomainError, type ErrorDetail, missing } from '@crm/domain';

/**
 * Deepest nesting of objects and arrays accepted in any input: REST and tRPC inputs, REST
 * query strings, trigger bodies, sign-in bodies (docs/api.md, "Limits of input"). The
 * top-level object is level 1.
 */
export const MAX_INPUT_DEPTH = 64;

/** At most this many problems are listed in `details`; the walk stops there. */
const MAX_DETAILS = 10;

/** A path segment (a key) is shown up to this many characters. */
const MAX_SEGMENT = 100;

/** NUL, or one half of a surrogate pair without the other. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused
const UNSTORABLE_CHAR = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_CHARS = new RegExp(UNSTORABLE_CHAR.source, 'g');

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | null;
  key: string | number;
}

/**
 * What in `value` (a parsed JSON input) cannot be stored or read back as sent, each with its
 * path (`data.notes.0`, as zod's details name fields) — empty when all is well:
 *
 * - NUL (U+0000) in a string or a key: PostgreSQL refuses it in text and jsonb;
 * - a lone UTF-16 surrogate (`"\ud800"`) in a string or a key: jsonb refuses it, text would
 *   keep U+FFFD instead;
 * - nesting deeper than MAX_INPUT_DEPTH: the schemas, the fingerprint of an Idempotency-Key and
 *   the JSON written to the database all recurse;
 * - a number JSON can write but not carry (`1e400` parses to Infinity, which is written null);
 * - a key named `__proto__`: JavaScript objects built from the input would drop it silently.
 *
 * The walk is iterative, so a body nested 20,000 levels deep costs a loop, not the stack.
 */
export function findUnstorable(value: unknown): ErrorDetail[] {
  const rootProblem = leafProblem(value);
  if (rootProblem) return [{ path: '', message: rootProblem }];
  const details: ErrorDetail[] = [];
  const stack: Frame[] = isContainer(value) ? [{ value, depth: 0, parent: null, key: '' }] : [];
  while (stack.length > 0 && details.length < MAX_DETAILS) {
    const frame = stack.pop() ?? missing('stack.pop()');
    const depth = frame.depth + 1;
    if (depth > MAX_INPUT_DEPTH) {
      details.push({
        path: pathOf(frame),
        message: `nests deeper than ${MAX_INPUT_DEPTH} levels of objects and arrays`,
      });
      continue;
    }
    const container = frame.value as Record<string, unknown> | unknown[];
    const keys: (string | number)[] = Array.isArray(container)
      ? Array.from(container.keys())
      : Object.keys(container);
    const nested: Frame[] = [];
    for (const key of keys) {
      const child = (container as Record<string | number, unknown>)[key];
      const keyProblem =
        typeof key === 'number'
          ? null
          : key === '__proto__'
            ? 'is not accepted as a key'
            : textProblem(key, ' in a key');
      const problem = keyProblem ?? leafProblem(child);
      if (problem) {
        details.push({ path: pathOf({ value: child, depth, parent: frame, key }), message: problem });
        if (details.length >= MAX_DETAILS) break;
      } else if (isContainer(child)) {
        nested.push({ value: child, depth, parent: frame, key });
      }
    }
    // Last pushed, first walked: problems are listed in the input's order.
    for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i] ?? missing('nested[i]'));
  }
  return details;
}

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

function leafProblem(value: unknown): string | null {
  if (typeof value === 'string') return textProblem(value, '');
  if (typeof value === 'number' && !Number.isFinite(value)) return 'is a number too large to store';
  return null;
}

/**
 * Refuses input PostgreSQL cannot store or JavaScript cannot carry (see findUnstorable) with
 * a 400 VALIDATION_FAILED whose details name each path. Called before anything else reads
 * the input: by the JSON body reader, the REST query reader and every tRPC procedure.
 */
export function assertStorableInput(value: unknown): void {
  const details = findUnstorable(value);
  if (details.length === 0) return;
  const summary = details
    .slice(0, 5)
    .map((d) => (d.path ? `${d.path} ${d.message}` : d.message))
    .join('; ');
  throw new DomainError('VALIDATION_FAILED', `Invalid request: ${summary}`, { details });
}

function textProblem(text: string, where: string): string | null {
  const found = UNSTORABLE_CHAR.exec(text);
  if (!found) return null;
  return found[0] === '\u0000'
    ? `must not contain the NUL character (\\u0000)${where}`
    : `must not contain a lone UTF-16 surrogate (half of a character)${where}`;
}

/**
 * The frame's path, keys joined with dots. Characters that cannot be stored are shown as
 * `\uXXXX` text, so the error body itself can be logged and stored; long keys are cut.
 */
function pathOf(frame: Frame): string {
  const segments: string[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) segments.push(printable(f.key));
  return segments.reverse().join('.');
}

function printable(key: string | number): string {
  if (typeof key === 'number') return String(key);
  let text = key.length > MAX_SEGMENT ? `${key.slice(0, MAX_SEGMENT)}…` : key;
  text = text.replace(UNSTORABLE_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text;
}
