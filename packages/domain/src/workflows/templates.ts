import { missing } from '../shared/missing.ts';

/**
 * Templates in workflow actions (docs/workflows.md, "Templates"). A template names a value by
 * path — `trigger.body.email`, `trigger.recordId`, `record.title`, `record.data.company`,
 * `steps.0.output.id` — and nothing else: there are no expressions, filters or calls, so a
 * template never runs code. Paths are checked when the workflow is saved and read at run time.
 *
 * Two spellings mean the same: `{{ path }}` and `[[ path ]]`. The second exists because n8n,
 * Make and Zapier evaluate `{{ }}` themselves, so an automation built in one of them and sent
 * to the API would arrive with its templates already filled in (usually with nothing).
 */

/** Either spelling: group 1 is the path inside `{{ }}`, group 2 the path inside `[[ ]]`. */
const TEMPLATE = /\{\{([^{}]*)\}\}|\[\[([^[\]]*)\]\]/g;
const WHOLE = /^(?:\{\{([^{}]*)\}\}|\[\[([^[\]]*)\]\])$/;
const SEGMENT = /^[A-Za-z0-9_$-]+$/;
const ROOTS = ['trigger', 'record', 'steps', 'item', 'loop'] as const;
/** Roots only a loop's body reads. */
const LOOP_ROOTS = new Set(['item', 'loop']);

interface Syntax {
  open: string;
  close: string;
}
const CURLY: Syntax = { open: '{{', close: '}}' };
const SQUARE: Syntax = { open: '[[', close: ']]' };

/** The path and spelling of one match of TEMPLATE or WHOLE. */
function matched(curly: string | undefined, square: string | undefined): { path: string; syntax: Syntax } {
  return curly !== undefined
    ? { path: curly.trim(), syntax: CURLY }
    : { path: (square ?? '').trim(), syntax: SQUARE };
}

/** What templates can read while a run executes. */
export interface TemplateScope {
  trigger: { body: unknown; recordId: string | null; type: string };
  /** The context record (its API shape), or null when the run has none yet. */
  record: unknown;
  /** Earlier steps by top-level index and by name: `steps.0.output`, `steps.lookup.output`. */
  steps: Record<string, { output: unknown }>;
  /** Inside a loop's body: the item and its index. */
  item?: unknown;
  loop?: { index: number };
}

/**
 * Where a template is written, for the checks made when a workflow is saved: the index of its
 * top-level action (`steps.<n>` names an earlier one), the names of the steps before it
 * that it may read, and whether it is inside a loop's body (`item`, `loop`).
 */
export interface TemplatePlace {
  topIndex: number;
  names: ReadonlySet<string>;
  inLoop: boolean;
}

const placeOf = (where: number | TemplatePlace): TemplatePlace =>
  typeof where === 'number' ? { topIndex: where, names: new Set(), inLoop: false } : where;

/**
 * The problems of the templates in `text`, for an action at `where` (a top-level index, or a
 * place in the tree: `steps.<n>` and `steps.<name>` may only name an earlier step). Empty
 * when the text is fine. As with `{{ }}`, a `[[` or `]]`
 * that is not part of a template is a problem: neither pair can be written as literal text.
 */
export function templateProblems(text: string, where: number | TemplatePlace): string[] {
  const place = placeOf(where);
  const problems: string[] = [];
  const stripped = text.replace(TEMPLATE, (_match, curly?: string, square?: string) => {
    const { path, syntax } = matched(curly, square);
    const problem = pathProblem(path, place, syntax);
    if (problem) problems.push(problem);
    return '';
  });
  for (const { open, close } of [CURLY, SQUARE]) {
    if (stripped.includes(open) || stripped.includes(close)) {
      problems.push(`has an unbalanced ${open} or ${close}`);
    }
  }
  return problems;
}

function pathProblem(path: string, place: TemplatePlace, { open, close }: Syntax): string | null {
  if (path === '') return `has an empty ${open} ${close}`;
  const shown = `${open} ${path} ${close}`;
  const segments = path.split('.');
  const root = segments[0] ?? missing('segments[0]');
  if (!(ROOTS as readonly string[]).includes(root)) {
    return `${shown} must start with trigger, record, steps, item or loop`;
  }
  if (LOOP_ROOTS.has(root) && !place.inLoop) return `${shown}: ${root} is read only inside a FOR_EACH`;
  if (segments.some((s) => !SEGMENT.test(s))) {
    return `${shown} is not a path of names and numbers separated by dots`;
  }
  if (root === 'steps') {
    const n = segments[1];
    if (n === undefined) return `${shown} must name a step: steps.0.output… or steps.<name>.output…`;
    if (/^\d+$/.test(n)) {
      if (Number(n) >= place.topIndex) return `${shown} names step ${n}, which does not run before this one`;
    } else if (!place.names.has(n)) {
      return `${shown} names no step before this one (a step's number, or the name of a step it follows)`;
    }
    if (segments.length > 2 && segments[2] !== 'output') return `${shown}: a step offers only its output`;
  }
  return null;
}

/**
 * True when `path` can be read at run time: a known root and names and numbers. Everything a
 * saved workflow holds is; a `[[ … ]]` that is not (text saved before `[[ ]]` was a template)
 * is left as written when the step runs.
 */
function readable(path: string): boolean {
  const segments = path.split('.');
  return (
    (ROOTS as readonly string[]).includes(segments[0] ?? missing('segments[0]')) &&
    segments.every((s) => SEGMENT.test(s))
  );
}

/** Every template problem found in the strings of `value` (deeply), with the path of each. */
export function collectTemplateProblems(
  value: unknown,
  where: number | TemplatePlace,
  path: (string | number)[],
  out: { path: (string | number)[]; message: string }[],
): void {
  if (typeof value === 'string') {
    for (const message of templateProblems(value, where)) out.push({ path, message });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      collectTemplateProblems(item, where, [...path, i], out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      collectTemplateProblems(item, where, [...path, key], out);
    }
  }
}

/** The text with each template, in either spelling, replaced by a space. */
export function withoutTemplates(text: string): string {
  return text.replace(TEMPLATE, ' ');
}

/** True when the string holds at least one template, in either spelling. */
export function hasTemplate(text: string): boolean {
  TEMPLATE.lastIndex = 0;
  return TEMPLATE.test(text);
}

function lookup(scope: TemplateScope, path: string): unknown {
  let current: unknown = scope;
  for (const segment of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) {
      current = /^\d+$/.test(segment) ? current[Number(segment)] : undefined;
    } else if (typeof current === 'object') {
      current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * Renders one string. A string that is exactly one template gives the value itself (a
 * number stays a number, a missing value is null); otherwise each template is replaced by
 * its value as text (missing → empty). Both spellings render alike.
 */
export function renderString(text: string, scope: TemplateScope): unknown {
  const whole = WHOLE.exec(text);
  if (whole) {
    const { path } = matched(whole[1], whole[2]);
    if (!readable(path)) return text;
    const value = lookup(scope, path);
    return value === undefined ? null : value;
  }
  return text.replace(TEMPLATE, (match, curly?: string, square?: string) => {
    const { path } = matched(curly, square);
    return readable(path) ? asText(lookup(scope, path)) : match;
  });
}

/** Renders every string inside `value` (objects and arrays deeply); other values stay. */
export function renderValue(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return renderString(value, scope);
  if (Array.isArray(value)) return value.map((item) => renderValue(item, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderValue(v, scope)]));
  }
  return value;
}
