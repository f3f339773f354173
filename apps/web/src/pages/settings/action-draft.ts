import { type ActionType, conditionOperators } from '@crm/constants';
import { defaultMode, paramsOf, visibleParams } from './action-forms.ts';

/**
 * An action as the builder keeps it while it is edited, and the conversions from and to the
 * API's `{ type, ...parameters }` (docs/workflows.md, "Actions"). Text inputs are strings,
 * key/value rows arrays; a branch's arms and a loop's body are drafts of their own.
 */
export interface DraftAction {
  key: string;
  type: ActionType;
  values: Record<string, string | [string, string][]>;
  /** The nested lists by parameter: a BRANCH's `then` and `else`, a FOR_EACH's `actions`. */
  lists: Record<string, DraftAction[]>;
  /** A BRANCH's condition. */
  condition: ConditionDraft;
  /** Which of the type's modes is shown (DELAY: for / until, FOR_EACH: items / records). */
  mode: string;
  /** Saved parameters the form has no input for (a deal's currency), sent back as they were. */
  kept: Record<string, unknown>;
}

export type Operator = (typeof conditionOperators)[number];

/** A BRANCH condition as edited: a comparison, or an all / any / not group. */
export type ConditionDraft =
  | { key: string; kind: 'leaf'; left: string; operator: Operator; right: string }
  | { key: string; kind: 'all' | 'any'; items: ConditionDraft[] }
  | { key: string; kind: 'not'; inner: ConditionDraft };

export type ConditionKind = ConditionDraft['kind'];

let nextKey = 0;
const key = (prefix: string) => {
  nextKey++;
  return `${prefix}${nextKey}`;
};

export function newLeaf(): ConditionDraft {
  return { key: key('c'), kind: 'leaf', left: '', operator: 'EQUALS', right: '' };
}

export function newDraft(type: ActionType = 'ADD_COMMENT'): DraftAction {
  return {
    key: key('a'),
    type,
    values: {},
    lists: {},
    condition: newLeaf(),
    mode: defaultMode(type),
    kept: {},
  };
}

/** A condition changed to another kind, keeping what it can of what was typed. */
export function convertCondition(node: ConditionDraft, kind: ConditionKind): ConditionDraft {
  if (node.kind === kind) return node;
  if (kind === 'leaf') return firstLeaf(node) ?? newLeaf();
  if (kind === 'not') return { key: key('c'), kind, inner: node };
  if (node.kind === 'all' || node.kind === 'any') return { ...node, kind };
  return { key: key('c'), kind, items: [node.kind === 'not' ? node.inner : node] };
}

function firstLeaf(node: ConditionDraft): ConditionDraft | undefined {
  if (node.kind === 'leaf') return node;
  if (node.kind === 'not') return firstLeaf(node.inner);
  for (const item of node.items) {
    const leaf = firstLeaf(item);
    if (leaf) return leaf;
  }
  return undefined;
}

const asText = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

function toConditionDraft(value: unknown): ConditionDraft {
  const node = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  for (const kind of ['all', 'any'] as const) {
    const items = node[kind];
    if (Array.isArray(items)) return { key: key('c'), kind, items: items.map(toConditionDraft) };
  }
  if ('not' in node) return { key: key('c'), kind: 'not', inner: toConditionDraft(node.not) };
  const operator = conditionOperators.find((o) => o === node.operator) ?? 'EQUALS';
  return { key: key('c'), kind: 'leaf', left: asText(node.left), operator, right: asText(node.right) };
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const UNARY: readonly Operator[] = ['EXISTS', 'NOT_EXISTS'];
const ORDERING: readonly Operator[] = ['GREATER_THAN', 'LESS_THAN'];

/** Whether a comparison with this operator has a right side. */
export const takesRight = (operator: Operator) => !UNARY.includes(operator);

/** The right side of a comparison: a number where sizes are compared, else as typed. */
function rightValue(operator: string, right: string): unknown {
  return ORDERING.includes(operator as Operator) && NUMBER.test(right.trim()) ? Number(right) : right;
}

function toCondition(node: ConditionDraft): Record<string, unknown> {
  switch (node.kind) {
    case 'leaf':
      return takesRight(node.operator)
        ? { left: node.left, operator: node.operator, right: rightValue(node.operator, node.right) }
        : { left: node.left, operator: node.operator };
    case 'not':
      return { not: toCondition(node.inner) };
    default:
      return { [node.kind]: node.items.map(toCondition) };
  }
}

/** A JSON text as its value, or the text itself when it is not JSON (the server names the problem). */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A saved action back into the form. */
export function toDraft(action: Record<string, unknown>): DraftAction {
  const type = action.type as ActionType;
  const draft = newDraft(type);
  const params = new Map(paramsOf(type).map((p) => [p.name, p]));
  for (const [name, value] of Object.entries(action)) {
    if (name === 'type') continue;
    const param = params.get(name);
    if (!param) {
      draft.kept[name] = value;
      continue;
    }
    if (param.kind === 'actions') {
      draft.lists[name] = Array.isArray(value) ? value.map((a) => toDraft(a as Record<string, unknown>)) : [];
    } else if (param.kind === 'condition') {
      draft.condition = toConditionDraft(value);
    } else if (param.kind === 'records') {
      const query = (value ?? {}) as Record<string, unknown>;
      for (const part of ['folderId', 'q', 'filter', 'sort'])
        if (query[part] !== undefined)
          draft.values[`records.${part}`] =
            typeof query[part] === 'string' ? query[part] : JSON.stringify(query[part]);
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      draft.values[name] = Object.entries(value).map(([k, v]) => [k, asText(v)]);
    } else {
      draft.values[name] = asText(value);
    }
  }
  if (type === 'DELAY' && action.until !== undefined) draft.mode = 'until';
  if (type === 'FOR_EACH' && action.records !== undefined) draft.mode = 'records';
  return draft;
}

/** A FOR_EACH's records query from its inputs: empty ones left out, the filter as JSON. */
function recordsQuery(values: DraftAction['values']): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const part of ['folderId', 'q', 'filter', 'sort']) {
    const value = values[`records.${part}`];
    if (typeof value !== 'string' || value.trim() === '') continue;
    query[part] = part === 'filter' ? jsonOrText(value) : value;
  }
  return query;
}

/** The form into the API's `{ type, ...parameters }`: empty inputs are left out. */
export function toAction(draft: DraftAction): Record<string, unknown> {
  const action: Record<string, unknown> = { type: draft.type, ...draft.kept };
  for (const param of visibleParams(draft.type, draft.mode)) {
    if (param.kind === 'actions') {
      const list = draft.lists[param.name] ?? [];
      if (param.required || list.length > 0) action[param.name] = list.map(toAction);
      continue;
    }
    if (param.kind === 'condition') {
      action[param.name] = toCondition(draft.condition);
      continue;
    }
    if (param.kind === 'records') {
      action[param.name] = recordsQuery(draft.values);
      continue;
    }
    const value = draft.values[param.name];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      const rows = value.filter(([k]) => k.trim() !== '');
      if (rows.length > 0) action[param.name] = Object.fromEntries(rows.map(([k, v]) => [k.trim(), v]));
      continue;
    }
    if (value.trim() === '') continue;
    if (param.kind === 'check') {
      if (value === (param.value ?? 'true')) action[param.name] = param.value ?? true;
    } else if (param.kind === 'number' && NUMBER.test(value.trim())) {
      // A number field may hold a template instead.
      action[param.name] = Number(value);
    } else if (draft.type === 'CONDITION' && param.name === 'right') {
      action[param.name] = rightValue(String(draft.values.operator), value);
    } else if (param.name === 'items' && value.trim().startsWith('[')) {
      // A FOR_EACH over a literal list, as saved through the API.
      action[param.name] = jsonOrText(value);
    } else {
      action[param.name] = value;
    }
  }
  return action;
}

/** Whether `path` is `base` or a path below it (`actions.2.title` is below `actions.2`). */
export const isUnder = (path: string, base: string) => path === base || path.startsWith(`${base}.`);

/**
 * The messages at `path` and below it, one line each; those below it say where
 * (`all.0.right: right is required for this operator`).
 */
export function errorsUnder(errors: Record<string, string>, path: string): string | undefined {
  const found = Object.entries(errors)
    .filter(([p]) => isUnder(p, path))
    .map(([p, message]) => (p === path ? message : `${p.slice(path.length + 1)}: ${message}`));
  return found.length > 0 ? found.join('; ') : undefined;
}

/**
 * The paths of `errors` the builder shows next to a field, for the steps of the list at
 * `path` and the lists inside them: the rest are listed above the form with their path. It
 * walks the drafts as the builder draws them: a step's own problem at its action picker, each
 * parameter's problems (and those below it) at its input, those of a mode not shown at the
 * mode picker, and a nested list's at that list.
 */
export function shownErrorPaths(
  drafts: DraftAction[],
  path: string,
  errors: Record<string, string>,
): string[] {
  const shown = path in errors ? [path] : [];
  drafts.forEach((draft, index) => {
    const prefix = `${path}.${index}`;
    for (const own of [prefix, `${prefix}.type`]) if (own in errors) shown.push(own);
    for (const param of paramsOf(draft.type)) {
      const at = `${prefix}.${param.name}`;
      if (param.kind === 'actions') {
        shown.push(...shownErrorPaths(draft.lists[param.name] ?? [], at, errors));
        continue;
      }
      shown.push(...Object.keys(errors).filter((p) => isUnder(p, at)));
    }
  });
  return shown;
}
