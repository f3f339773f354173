import { loopItems, nestedActions, type RunAction, type StepRecord, type StepRecords } from '@crm/domain';

/** The item a step inside a loop's body works on: `item` and `loop.index` of its templates. */
interface LoopFrame {
  item: unknown;
  index: number;
}

/** What a run does next, read from its actions and the records of its steps. */
export type Next =
  /** Run (or go on with: waiting, retried) the step at `path`. */
  | { kind: 'step'; path: string; action: RunAction; record: StepRecord | undefined; loop: LoopFrame | null }
  /** Every item of the loop at `path` is done: record its output. */
  | { kind: 'loop-done'; path: string; action: RunAction; record: StepRecord; count: number; failed: number }
  /** Nothing is left: the run succeeded. */
  | { kind: 'done' }
  /** A CONDITION was false: the run ends, SUCCEEDED, its other steps SKIPPED. */
  | { kind: 'stopped' }
  /** The step at `path` failed for good: the run fails. */
  | { kind: 'failed'; path: string; action: RunAction; record: StepRecord };

/** A step whose record says it is finished for good (it will not be run again). */
const finallyFailed = (record: StepRecord | undefined) =>
  record?.status === 'FAILED' && record.nextAttemptAt === null;

/**
 * What a job has learnt of its run's loops while it walked them: for each loop (by path) the
 * items before `next` are done, `failed` of them failed. Records only ever move forward, so
 * what was done stays done, and later walks of the same job start there instead of at item 0:
 * a loop of 1,000 items is walked item by item once, not once per step.
 */
export type LoopProgress = Map<string, { next: number; failed: number }>;

/**
 * The next thing a run does (docs/workflows.md, "Runs"). Walks the action tree in order and
 * follows the records: a step that succeeded is passed over and never run again, a branch goes
 * into the arm its recorded output chose, a loop goes through the items it recorded when it
 * started, item after item. A failed step of an item of a loop with `continueOnError` counts
 * that item as failed and the loop goes on with the next.
 */
export function nextStep(
  actions: readonly RunAction[],
  records: StepRecords,
  progress: LoopProgress = new Map(),
): Next {
  return walk(actions, '', null, records, progress) ?? { kind: 'done' };
}

function walk(
  list: readonly RunAction[],
  prefix: string,
  loop: LoopFrame | null,
  records: StepRecords,
  progress: LoopProgress,
): Next | null {
  for (let i = 0; i < list.length; i++) {
    const action = list[i] as RunAction;
    const path = `${prefix}${i}`;
    const record = records.get(path);
    if (action.type === 'BRANCH' && record?.status === 'SUCCEEDED') {
      const arm = (record.output as { passed?: boolean } | null)?.passed === true ? 'then' : 'else';
      const inner = walk(nestedActions(action, arm), `${path}.${arm}.`, loop, records, progress);
      if (inner) return inner;
      continue;
    }
    if (action.type === 'FOR_EACH' && record?.status === 'RUNNING') {
      const items = loopItems(record) ?? [];
      const body = nestedActions(action, 'actions');
      const known = progress.get(path) ?? { next: 0, failed: 0 };
      progress.set(path, known);
      for (let k = known.next; k < items.length; k++) {
        const inner = walk(body, `${path}.items.${k}.`, { item: items[k], index: k }, records, progress);
        if (inner?.kind === 'failed' && action.continueOnError === true) {
          known.failed += 1;
          known.next = k + 1;
          continue;
        }
        if (inner) return inner;
        known.next = k + 1;
      }
      return { kind: 'loop-done', path, action, record, count: items.length, failed: known.failed };
    }
    if (record?.status === 'SUCCEEDED') {
      if (action.type === 'CONDITION' && (record.output as { passed?: boolean } | null)?.passed === false)
        return { kind: 'stopped' };
      continue;
    }
    if (record && finallyFailed(record)) return { kind: 'failed', path, action, record };
    return { kind: 'step', path, action, record, loop };
  }
  return null;
}

/**
 * Where each named action of a tree is, its loop items written `*` (`0.items.*.1`), found once
 * per action list (a run keeps its list, so a job finds them once).
 */
const namedPathsOf = new WeakMap<readonly RunAction[], Map<string, string[]>>();

function namedPaths(actions: readonly RunAction[]): Map<string, string[]> {
  let found = namedPathsOf.get(actions);
  if (found) return found;
  found = new Map();
  const walkNames = (list: readonly RunAction[], prefix: string[]) => {
    list.forEach((action, i) => {
      const here = [...prefix, String(i)];
      if (typeof action.name === 'string') found?.set(action.name, here);
      if (action.type === 'BRANCH') {
        walkNames(nestedActions(action, 'then'), [...here, 'then']);
        walkNames(nestedActions(action, 'else'), [...here, 'else']);
      } else if (action.type === 'FOR_EACH') {
        walkNames(nestedActions(action, 'actions'), [...here, 'items', '*']);
      }
    });
  };
  walkNames(actions, []);
  namedPathsOf.set(actions, found);
  return found;
}

/**
 * The path of a named step as the step at `path` reads it: outside loops its own; inside a
 * loop's body, that of the item `path` is in; null when `path` is not in that loop's body.
 */
function pathFor(template: string[], path: string[]): string | null {
  const out: string[] = [];
  for (let i = 0; i < template.length; i++) {
    const segment = template[i] as string;
    if (segment !== '*') {
      out.push(segment);
      continue;
    }
    // The item of the loop: the step reading it must be in the same loop, at the same place.
    for (let j = 0; j < i; j++) if (template[j] !== path[j]) return null;
    const item = path[i];
    if (item === undefined) return null;
    out.push(item);
  }
  return out.join('.');
}

/**
 * What `steps.*` reads for the step at `path`: each top-level step's output by index, and
 * each named step's by name — inside a loop's body, that of the same item. At most one
 * lookup per top-level action and per name, however many steps the run has recorded.
 */
export function stepOutputs(
  actions: readonly RunAction[],
  records: StepRecords,
  path: string,
): Record<string, { output: unknown }> {
  const steps: Record<string, { output: unknown }> = {};
  actions.forEach((_action, index) => {
    steps[String(index)] = { output: records.get(String(index))?.output ?? null };
  });
  const segments = path.split('.');
  for (const [name, template] of namedPaths(actions)) {
    const at = pathFor(template, segments);
    const record = at === null ? undefined : records.get(at);
    if (record) steps[name] = { output: record.output ?? null };
  }
  return steps;
}
