import { DomainError, missing } from '@crm/domain';

/** Deepest bracket nesting read: `filter[data.score][gte]` is two. */
const MAX_BRACKETS = 2;
const BRACKETED = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;

type Nested = { [key: string]: string | Nested };

/**
 * Query parameters with brackets read into objects, as the `deepObject` style of OpenAPI
 * writes them: `filter[data.score][gte]=50&filter[title]=Ada` is
 * `filter: { "data.score": { gte: "50" }, title: "Ada" }` (docs/api.md, "Filters, sorts and
 * counts"). What is inside a pair of brackets is one key, dots and all. Keys without brackets
 * are left as they are; objects have no prototype, like the rest of the query. A name given
 * twice, both as a value and with brackets, or nested deeper than MAX_BRACKETS is a 400
 * naming the parameter.
 *
 * `lists` is the query with every value a list (readQuery in mount-rest.ts); a bracketed
 * name becomes a list of one object there, and the REST layer then takes a list of one as
 * its value.
 */
export function nestBracketKeys(lists: Record<string, string[]>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = Object.create(null);
  const roots: Record<string, Nested> = Object.create(null);
  for (const [name, values] of Object.entries(lists)) {
    const match = BRACKETED.exec(name);
    if (!match) {
      out[name] = values;
      continue;
    }
    const base = match[1] ?? missing('match[1]');
    const keys = (match[2] ?? missing('match[2]')).slice(1, -1).split('][');
    if (keys.length > MAX_BRACKETS) refuse(name, `nests deeper than ${MAX_BRACKETS} brackets`);
    if (keys.some((k) => k === '')) refuse(name, 'has empty brackets');
    if (values.length > 1) refuse(name, 'is given more than once');
    roots[base] ??= Object.create(null) as Nested;
    let node: Nested = roots[base];
    for (const key of keys.slice(0, -1)) {
      node[key] ??= Object.create(null) as Nested;
      const next: string | Nested = node[key];
      if (typeof next === 'string') refuse(name, `is given both as a value and with [${key}]`);
      node = next;
    }
    const last = keys[keys.length - 1] ?? missing('keys[keys.length - 1]');
    if (last in node) refuse(name, 'is given both as a value and with brackets');
    node[last] = values[0] ?? missing('values[0]');
  }
  for (const [base, node] of Object.entries(roots)) {
    if (base in out) refuse(base, 'is given both as a value and with brackets');
    out[base] = [node];
  }
  return out;
}

function refuse(name: string, message: string): never {
  throw new DomainError('VALIDATION_FAILED', `Query parameter ${name} ${message}`, {
    details: [{ path: name, message }],
  });
}
