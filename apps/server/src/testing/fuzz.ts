/**
 * Hostile requests for fuzz.test.ts, generated from a seed so a run can be repeated: the
 * same seed gives the same requests in the same order (FUZZ_SEED picks another).
 *
 * A request is made for one route (a REST operation of the OpenAPI document, the trigger
 * URL, the sign-in route, or a tRPC procedure) and one case: a kind of bad input the
 * service must answer with a 4xx in the REST error body's shape, never a 5xx.
 */

/** mulberry32: small, fast and good enough to pick inputs. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]) => items[int(items.length)]!,
  };
}

export interface Random {
  next(): number;
  /** 0 ≤ n < max */
  int(max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** A JSON schema as the OpenAPI document writes it (only what the generator reads). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  format?: string;
}

export interface FuzzRoute {
  surface: 'rest' | 'trigger' | 'sign-in' | 'trpc';
  method: string;
  /** `/records/{id}` below /api/v1, the trigger URL template, `/auth/sign-in`, or the tRPC procedure. */
  template: string;
  pathParams: string[];
  queryParams: string[];
  /** Schemas of the query parameters, by name. */
  querySchemas: Record<string, Schema>;
  body: Schema | null;
}

export interface FuzzRequest {
  route: FuzzRoute;
  kind: CaseKind;
  method: string;
  /** Path and query, percent-encoded as sent. */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** What a case needs from the test's fixtures: real ids and keys for path parameters and bodies. */
export interface FuzzFixtures {
  /** Real ids by the first segment of a REST path (`records`, `folders`, …) and for `stageId`, `key`. */
  ids: Record<string, string[]>;
  /** Values that make a body plausible: ids for `folderId`, `pipelineId`, … and field keys for `data`. */
  values: Record<string, string[]>;
  /** Workflows whose trigger URL is fuzzed (never REST path ids, so REST calls cannot disable them). */
  triggerWorkflowIds: string[];
  /** Resolves `$ref` in the OpenAPI document. */
  resolve(ref: string): Schema;
}

export const CASE_KINDS = [
  'plausible',
  'prototype-query-key',
  'nul-query-value',
  'nul-query-key',
  'nul-body-value',
  'nul-body-key',
  'lone-surrogate',
  'deep-1000',
  'deep-20000',
  'wrong-types',
  'huge-numbers',
  'unknown-keys',
  'path-id-junk',
  'bad-json',
  'proto-body-key',
  'content-type',
] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

const PROTOTYPE_NAMES = [
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
  'prototype',
];

const HUGE_NUMBERS = [
  '1e400',
  '-1e400',
  '1e308',
  '-1.7976931348623157e308',
  '9007199254740993',
  '123456789012345678901234567890',
  '1e21',
  '-0',
  '0.1e-400',
  '2147483648',
  '-2147483649',
  '99999999999999.999',
];

const BAD_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '{"a":1}{"b":2}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"unterminated}',
  '\ufeff{"a":1}',
  'null',
  '[]',
  '"text"',
  '42',
  'true',
  '{"a":1}]',
  '{"a" 1}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":"tab\there"}',
  '{"a":"new\nline"}',
  '{"\u0000":1}',
  '{"a":"\u0000"}',
  '   ',
];

const RANDOM_CHARS =
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~!*\'();:@&=+$,/?#[]% "<>\\^`{|}';
const UNICODE_SAMPLES = [
  'é',
  'ß',
  'Ω',
  '中',
  '😀',
  '\u0301',
  '\u200b',
  '\u202e',
  '\ufffd',
  '\uffff',
  '𝔘',
  '\t',
  '\n',
];

/** A short random string; sometimes unicode, never NUL or lone surrogates (the cases add those). */
function randomText(random: Random, max = 24): string {
  const length = random.int(max) + 1;
  let text = '';
  for (let i = 0; i < length; i++) {
    text += random.chance(0.1) ? random.pick(UNICODE_SAMPLES) : RANDOM_CHARS[random.int(RANDOM_CHARS.length)];
  }
  return text;
}

/** A path segment that is no real id: random text, wrong prefixes, encodings PostgreSQL cannot store. */
function junkId(random: Random, param: string): string {
  switch (random.int(9)) {
    case 0:
      return encodeURIComponent(randomText(random, 40));
    case 1:
      return `${random.pick(['rec', 'fld', 'pl', 'st', 'deal', 'task', 'wh', 'dlv', 'wf', 'run', 'usr'])}_${encodeURIComponent(randomText(random, 30))}`;
    case 2:
      return 'x'.repeat(200 + random.int(1800));
    case 3:
      return random.pick([
        '%00',
        'a%00b',
        '%ff',
        '%zz',
        '%ED%A0%80',
        '%E2%82',
        '%C0%AF',
        '%2F',
        '%5C',
        '%25',
        '%20',
      ]);
    case 4:
      return encodeURIComponent(random.pick(PROTOTYPE_NAMES));
    case 5:
      return random.pick(['0', '-1', '1e400', 'null', 'undefined', 'true', '[]', '{}', 'NaN']);
    case 6:
      return encodeURIComponent(random.pick(UNICODE_SAMPLES) + randomText(random, 8));
    case 7:
      return `${param === 'key' ? 'field' : 'rec'}_${'0'.repeat(26)}`;
    default:
      return encodeURIComponent(`${randomText(random, 10)}\ud83d\ude00`);
  }
}

/** Stands for a key JSON.stringify cannot write (a lone surrogate) or that a JS object cannot hold as its own (`__proto__`). */
const KEY_MARK = '\u0007KEY\u0007';
/** KEY_MARK as JSON.stringify writes it. */
const KEY_MARK_JSON = '\\u0007KEY\\u0007';

/** Marks a place in a body where raw JSON text goes instead of a value (JSON.stringify cannot write it). */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold Raw parts. */
function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0007RAW${raws.length - 1}\u0007`;
    }
    return v;
  });
  return text.replace(/"\\u0007RAW(\d+)\\u0007"/g, (_m, i: string) => raws[Number(i)]!);
}

const deepText = (random: Random, levels: number) =>
  random.chance(0.5)
    ? `${'['.repeat(levels)}${']'.repeat(levels)}`
    : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** A value that fits `schema`, more or less: right types, random content. */
function plausibleValue(
  random: Random,
  schema: Schema | undefined,
  fixtures: FuzzFixtures,
  name = '',
  depth = 0,
): unknown {
  const known = fixtures.values[name];
  if (known && known.length > 0 && random.chance(0.8)) return random.pick(known);
  if (!schema || depth > 4) return randomText(random);
  if (schema.$ref) return plausibleValue(random, fixtures.resolve(schema.$ref), fixtures, name, depth + 1);
  if (schema.enum) return random.pick(schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return plausibleValue(random, random.pick(options), fixtures, name, depth + 1);
  const type = Array.isArray(schema.type) ? random.pick(schema.type) : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time')
        return new Date(Date.UTC(2026, random.int(12), 1 + random.int(28))).toISOString();
      if (schema.format === 'email')
        return `${randomText(random, 8).replace(/[^a-z0-9]/gi, '') || 'x'}@example.com`;
      if (name === 'url') return `http://127.0.0.1:1/${random.int(1000)}`;
      if (name === 'closeDate' || name === 'dueDate')
        return `2026-${1 + random.int(12)}-${1 + random.int(28)}`.replace(/-(\d)\b/g, '-0$1');
      return randomText(random);
    case 'number':
    case 'integer':
      return random.chance(0.2) ? random.int(1000) / 100 : random.int(100);
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const length = random.int(3);
      return Array.from({ length }, () => plausibleValue(random, schema.items, fixtures, name, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      for (const [key, property] of Object.entries(properties)) {
        if (required.has(key) || random.chance(0.4)) {
          out[key] = plausibleValue(random, property, fixtures, key, depth + 1);
        }
      }
      if (name === 'data' && !schema.properties) {
        for (const key of fixtures.values.fieldKeys ?? []) {
          if (random.chance(0.3))
            out[key] = random.pick([randomText(random), random.int(10), true, null, ['x']]);
        }
      }
      return out;
    }
    default:
      return randomText(random);
  }
}

/** A value of another type than `value`. */
function wrongType(random: Random, value: unknown): unknown {
  const candidates: unknown[] = [42, -1.5, true, null, 'text', [], [1, 'two'], {}, { nested: { x: 1 } }, ''];
  const others = candidates.filter(
    (c) => typeof c !== typeof value || Array.isArray(c) !== Array.isArray(value),
  );
  return random.pick(others.length > 0 ? others : candidates);
}

function bodyRoute(route: FuzzRoute) {
  return route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';
}

/** One request: `route` with `kind` of bad input, from `random`. */
export function makeRequest(
  random: Random,
  route: FuzzRoute,
  kind: CaseKind,
  fixtures: FuzzFixtures,
): FuzzRequest {
  const headers: Record<string, string> = {};
  const query: [string, string | Raw][] = [];
  const pathValues: Record<string, string> = {};
  for (const param of route.pathParams) {
    const real = realIds(route, param, fixtures);
    // Writes that delete seldom reach the real fixtures, so later requests find them.
    const useReal = real.length > 0 && random.chance(route.method === 'DELETE' ? 0.15 : 0.7);
    pathValues[param] = useReal ? encodeURIComponent(random.pick(real)) : junkId(random, param);
  }
  for (const param of route.queryParams) {
    if (random.chance(0.3)) {
      query.push([param, String(plausibleValue(random, route.querySchemas[param], fixtures, param))]);
    }
  }
  let body: unknown;
  let text: string | Uint8Array | undefined;
  if (bodyRoute(route)) body = plausibleValue(random, route.body ?? { type: 'object' }, fixtures);
  const bodyObject = () => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) body = {};
    return body as Record<string, unknown>;
  };
  /** A property of the body to spoil: one the schema names, or `data`, or a new one. */
  const someKey = () => {
    const names = Object.keys(route.body?.properties ?? {});
    return names.length > 0 && random.chance(0.8) ? random.pick(names) : random.pick(['data', 'name', 'x']);
  };
  /** Where in the body a spoiled value goes: at the top, or inside `data`. */
  const place = (value: unknown) => {
    if (random.chance(0.3)) bodyObject().data = { [random.pick(fixtures.values.fieldKeys ?? ['k'])]: value };
    else bodyObject()[someKey()] = value;
  };
  const queryKey = () =>
    route.queryParams.length > 0 && random.chance(0.7)
      ? random.pick(route.queryParams)
      : randomText(random, 8);

  switch (kind) {
    case 'plausible':
      break;
    case 'prototype-query-key':
      query.push([random.pick(PROTOTYPE_NAMES), random.chance(0.5) ? '' : randomText(random, 6)]);
      break;
    case 'nul-query-value':
      query.push([queryKey(), `${randomText(random, 4)}\u0000${randomText(random, 4)}`]);
      break;
    case 'nul-query-key':
      query.push([`${randomText(random, 4)}\u0000`, randomText(random, 4)]);
      break;
    case 'nul-body-value':
      if (bodyRoute(route)) place(`${randomText(random, 6)}\u0000`);
      else query.push([queryKey(), '\u0000']);
      break;
    case 'nul-body-key':
      if (bodyRoute(route)) {
        if (random.chance(0.5)) bodyObject()[`${someKey()}\u0000`] = 1;
        else bodyObject().data = { 'a\u0000b': randomText(random) };
      } else query.push([`\u0000${queryKey()}`, '1']);
      break;
    case 'lone-surrogate': {
      const half = random.pick(['\\ud800', '\\udbff', '\\udc00', '\\udfff', 'x\\ud83d', '\\ude00x']);
      if (bodyRoute(route)) {
        if (random.chance(0.7)) place(new Raw(`"${half}"`));
        else bodyObject()[KEY_MARK] = 1;
        text = toJsonText(body).replace(KEY_MARK_JSON, half);
      } else {
        // In the query: its UTF-8-like bytes for REST (they decode to U+FFFD), a JSON escape in tRPC's ?input=.
        query.push([queryKey(), new Raw(`"${half}"`)]);
      }
      break;
    }
    case 'deep-1000':
      if (bodyRoute(route)) place(new Raw(deepText(random, 1000)));
      // Arrays only: 1,000 levels of objects would make a URL longer than Node accepts (431).
      else query.push([queryKey(), new Raw(`${'['.repeat(1000)}${']'.repeat(1000)}`)]);
      break;
    case 'deep-20000':
      if (bodyRoute(route)) place(new Raw(deepText(random, 20_000)));
      else query.push([queryKey(), `${'{"a":'.repeat(300)}`]); // a URL this deep would pass Node's 16 KiB header limit
      break;
    case 'wrong-types':
      if (bodyRoute(route)) {
        const object = bodyObject();
        for (const key of Object.keys(route.body?.properties ?? { x: 0 })) {
          if (random.chance(0.5)) object[key] = wrongType(random, object[key]);
        }
      } else {
        for (const param of route.queryParams)
          if (random.chance(0.5)) query.push([param, randomText(random, 6)]);
      }
      break;
    case 'huge-numbers':
      if (bodyRoute(route)) place(new Raw(random.pick(HUGE_NUMBERS)));
      else query.push([queryKey(), random.pick(HUGE_NUMBERS)]);
      break;
    case 'unknown-keys':
      if (bodyRoute(route))
        bodyObject()[randomText(random, 12)] = plausibleValue(random, undefined, fixtures);
      else query.push([randomText(random, 12), randomText(random, 6)]);
      break;
    case 'path-id-junk':
      for (const param of route.pathParams) pathValues[param] = junkId(random, param);
      if (route.pathParams.length === 0) query.push([randomText(random, 6), junkId(random, 'id')]);
      break;
    case 'bad-json':
      if (bodyRoute(route)) {
        text = random.chance(0.15)
          ? new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d])
          : random.pick(BAD_JSON);
      } else query.push(['input', random.pick(BAD_JSON)]);
      break;
    case 'proto-body-key':
      if (bodyRoute(route)) {
        const key = random.pick(PROTOTYPE_NAMES);
        const value = random.pick([{ title: 'x' }, { polluted: true }, 1, null, 'x']);
        if (random.chance(0.5)) bodyObject().data = { [KEY_MARK]: value };
        else bodyObject()[KEY_MARK] = value;
        text = toJsonText(body).replace(KEY_MARK_JSON, key);
      } else query.push([random.pick(PROTOTYPE_NAMES), 'x']);
      break;
    case 'content-type':
      headers['Content-Type'] = random.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/JSON',
        'application/json-patch+json',
        '',
      ]);
      break;
  }

  if (route.surface === 'trpc')
    return trpcRequest(random, route, kind, { ...pathValues }, query, body, text, headers);

  let path = route.template;
  for (const [param, value] of Object.entries(pathValues)) path = path.replace(`{${param}}`, value);
  const search = query.map(([k, v]) => `${encodeURIComponent(k)}=${queryText(v)}`).join('&');
  const url = `${route.surface === 'rest' ? '/api/v1' : ''}${path}${search ? `?${search}` : ''}`;
  if (text === undefined && body !== undefined) text = toJsonText(body);
  if (text !== undefined) headers['Content-Type'] ??= 'application/json';
  if (headers['Content-Type'] === '') delete headers['Content-Type'];
  return { route, kind, method: route.method, url, headers, ...(text === undefined ? {} : { body: text }) };
}

/** The same case sent to the tRPC procedure: a mutation's input in the body, a query's in `?input=`. */
function trpcRequest(
  random: Random,
  route: FuzzRoute,
  kind: CaseKind,
  pathValues: Record<string, string>,
  query: [string, string | Raw][],
  body: unknown,
  text: string | Uint8Array | undefined,
  headers: Record<string, string>,
): FuzzRequest {
  const input: Record<string, unknown> = body && typeof body === 'object' ? { ...(body as object) } : {};
  for (const [param, value] of Object.entries(pathValues)) input[param] = safeDecode(value);
  for (const [key, value] of query) if (key !== 'input') input[key] = value;
  const isMutation = route.method !== 'GET';
  const inputText = text !== undefined && typeof text === 'string' && !isMutation ? text : undefined;
  if (isMutation) {
    const payload = text ?? toJsonText(input);
    headers['Content-Type'] ??= 'application/json';
    if (headers['Content-Type'] === '') delete headers['Content-Type'];
    return { route, kind, method: 'POST', url: `/trpc/${route.template}`, headers, body: payload };
  }
  const json = inputText ?? (kind === 'bad-json' ? random.pick(BAD_JSON) : toJsonText(input));
  return {
    route,
    kind,
    method: 'GET',
    url: `/trpc/${route.template}?input=${encodeURIComponent(json)}`,
    headers,
  };
}

/** A query value as sent to REST: Raw JSON text of a string is that string, other Raw text goes as it is. */
function queryText(value: string | Raw): string {
  if (!(value instanceof Raw)) return encodeURIComponent(value);
  const parsed: unknown = JSON.parse(value.text);
  return typeof parsed === 'string' ? wtf8Percent(parsed) : encodeURIComponent(value.text);
}

/** Percent-encoded UTF-8, a lone surrogate written as the three bytes UTF-8 would give it (no decoder accepts them). */
function wtf8Percent(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function realIds(route: FuzzRoute, param: string, fixtures: FuzzFixtures): string[] {
  if (route.surface === 'trigger') return fixtures.triggerWorkflowIds;
  if (param !== 'id') return fixtures.ids[param] ?? [];
  const resource = route.template.split('/')[1] ?? '';
  return fixtures.ids[resource] ?? [];
}
