import { z } from 'zod';

/**
 * How the REST layer reads a procedure's input from a query string (docs/api.md, "Requests and
 * responses"). Query values are text; the input schema says which keys want something else,
 * and only those are converted, before the procedure is called:
 *
 * - a number (`z.number()`, `z.int()`, optional or not): the text read as JavaScript's
 *   `Number()` reads it (`"50"` → 50; `"x"` → NaN, which the schema refuses);
 * - a boolean: `"true"` or `"false"`; any other text is left for the schema to refuse;
 * - a list (`z.array(…)`): a key given once is a list of one, and each item is converted as
 *   above;
 * - an object (a bracketed parameter, `filter[title]=…`): its keys, by the same rules, as
 *   deep as brackets nest (two levels, rest/query-string.ts).
 *
 * Everything else (text, enums, pipes, which convert for themselves, and lazy schemas, which
 * may recurse) is handed over as sent. JSON bodies are never converted: a number sent as `"12"` in a body is refused. The
 * schemas are only read, never changed, so /trpc and MCP parse exactly what they declare.
 */
export interface QueryDecoder {
  /** False for a procedure whose input is `z.void()` (or undefined, never): it takes none. */
  takesInput: boolean;
  fields: ReadonlyMap<string, FieldDecoder>;
}

type Scalar = 'number' | 'boolean' | 'text';
interface FieldDecoder {
  /** Given once, the value becomes a list of one. */
  list: boolean;
  /** How the value (each item of a list) is read. */
  scalar: Scalar;
  /** For an object: its own fields. */
  object?: QueryDecoder;
}

const decoders = new WeakMap<object, QueryDecoder>();
const NO_FIELDS: QueryDecoder = { takesInput: true, fields: new Map() };

/**
 * The decoder of a procedure's input schema, derived once per schema: a procedure without an
 * input (undefined) takes the query as it is.
 */
export function queryDecoderOf(schema: unknown): QueryDecoder {
  if (!(schema instanceof z.ZodType)) return NO_FIELDS;
  const known = decoders.get(schema);
  if (known) return known;
  const top = unwrapInput(schema);
  const kind = top.def.type;
  const decoder: QueryDecoder =
    kind === 'void' || kind === 'undefined' || kind === 'never'
      ? { takesInput: false, fields: new Map() }
      : top instanceof z.ZodObject
        ? objectDecoder(top, 0)
        : NO_FIELDS;
  decoders.set(schema, decoder);
  return decoder;
}

/** How deep bracketed names nest objects in a query (`filter[data.score][gte]`). */
const MAX_OBJECT_DEPTH = 2;

function objectDecoder(object: z.ZodObject, depth: number): QueryDecoder {
  const fields = new Map<string, FieldDecoder>();
  for (const [key, field] of Object.entries(object.shape as Record<string, z.ZodType>)) {
    const inner = unwrapOptional(field);
    const list = inner instanceof z.ZodArray;
    const item = list ? unwrapOptional(inner.element as z.ZodType) : inner;
    const scalar = scalarOf(item);
    const nested =
      item instanceof z.ZodObject && depth < MAX_OBJECT_DEPTH ? objectDecoder(item, depth + 1) : undefined;
    if (list || scalar !== 'text' || (nested && nested.fields.size > 0)) {
      fields.set(key, { list, scalar, ...(nested && nested.fields.size > 0 ? { object: nested } : {}) });
    }
  }
  return { takesInput: true, fields };
}

function scalarOf(schema: z.ZodType): Scalar {
  const kind = schema.def.type;
  return kind === 'number' ? 'number' : kind === 'boolean' ? 'boolean' : 'text';
}

/** Optional, nullable and default wrap the schema that reads the value. */
function unwrapOptional(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodPrefault
  ) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

/** The object an input schema reads: through optional wrappers, and the input side of a pipe. */
function unwrapInput(schema: z.ZodType): z.ZodType {
  let current = unwrapOptional(schema);
  while (current instanceof z.ZodPipe) current = unwrapOptional(current.in as z.ZodType);
  return current;
}

/**
 * Converts, in place, the query values of `input` (text, lists of text, or objects from
 * bracketed names) that its decoder names; `keys` limits it to those keys (a POST's query
 * parameters, merged into its body).
 */
export function decodeQueryValues(
  decoder: QueryDecoder,
  input: Record<string, unknown>,
  keys?: readonly string[],
): void {
  if (decoder.fields.size === 0) return;
  if (keys) {
    for (const key of keys) {
      const field = decoder.fields.get(key);
      if (field && Object.hasOwn(input, key)) input[key] = decodeField(field, input[key]);
    }
    return;
  }
  for (const [key, field] of decoder.fields) {
    if (Object.hasOwn(input, key)) input[key] = decodeField(field, input[key]);
  }
}

function decodeField(field: FieldDecoder, value: unknown): unknown {
  if (field.list) {
    const items = Array.isArray(value) ? value : [value];
    return items.map((item) => decodeScalar(field, item));
  }
  return decodeScalar(field, value);
}

function decodeScalar(field: FieldDecoder, value: unknown): unknown {
  if (typeof value === 'string') {
    if (field.scalar === 'number') return Number(value);
    if (field.scalar === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
    return value;
  }
  if (field.object && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    decodeQueryValues(field.object, value as Record<string, unknown>);
  }
  return value;
}
