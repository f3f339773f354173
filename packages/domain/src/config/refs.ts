/**
 * Ids inside workflow actions, written in a configuration document as references by name
 * (docs/operations.md, "Configuration as code"): an id means nothing in another workspace, a
 * name does. `{ "$folder": "People" }`, `{ "$pipeline": "Sales" }`, `{ "$stage": ["Sales",
 * "Won"] }`, `{ "$user": "ada@example.com" }`.
 *
 * Only the parameters that name such an object are read, in the actions and in those of
 * branches and loops (and a loop's `records.folderId`); a template or an id of nothing in the
 * workspace is kept as written, and checked when the step runs, as it is for any workflow.
 */

/** The parameters that hold an id, by the kind of object they name. */
const ID_PARAMETERS: Record<string, RefKind> = {
  folderId: 'folder',
  pipelineId: 'pipeline',
  stageId: 'stage',
  ownerId: 'user',
  assigneeId: 'user',
};
/** The parameters of an action that hold actions, or a loop's query. */
const NESTED = ['then', 'else', 'actions'];

export type RefKind = 'folder' | 'pipeline' | 'stage' | 'user';

/** The names of a workspace's objects by id, and the reverse. */
export interface Names {
  folders: Map<string, string>;
  pipelines: Map<string, string>;
  /** A stage's pipeline name and its own name. */
  stages: Map<string, [string, string]>;
  /** A member's email. */
  users: Map<string, string>;
}

export type Ref =
  | { $folder: string }
  | { $pipeline: string }
  | { $stage: [string, string] }
  | { $user: string };

/** The reference for an id, or undefined when the id is of nothing known. */
export function refOf(kind: RefKind, id: string, names: Names): Ref | undefined {
  switch (kind) {
    case 'folder': {
      const name = names.folders.get(id);
      return name === undefined ? undefined : { $folder: name };
    }
    case 'pipeline': {
      const name = names.pipelines.get(id);
      return name === undefined ? undefined : { $pipeline: name };
    }
    case 'stage': {
      const pair = names.stages.get(id);
      return pair === undefined ? undefined : { $stage: [pair[0], pair[1]] };
    }
    case 'user': {
      const email = names.users.get(id);
      return email === undefined ? undefined : { $user: email };
    }
  }
}

/** Rewrites every id parameter of `actions` that `rewrite` has an answer for. */
function mapIds(
  actions: unknown,
  rewrite: (kind: RefKind, value: unknown, path: (string | number)[]) => unknown,
  path: (string | number)[],
): unknown {
  if (!Array.isArray(actions)) return actions;
  return actions.map((action, i) => {
    if (action === null || typeof action !== 'object' || Array.isArray(action)) return action;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(action)) {
      const kind = ID_PARAMETERS[key];
      const here = [...path, i, key];
      if (kind !== undefined) out[key] = rewrite(kind, value, here);
      else if (NESTED.includes(key)) out[key] = mapIds(value, rewrite, here);
      else if (key === 'records' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const query = value as Record<string, unknown>;
        out[key] =
          'folderId' in query
            ? { ...query, folderId: rewrite('folder', query.folderId, [...here, 'folderId']) }
            : query;
      } else out[key] = value;
    }
    return out;
  });
}

/** Actions as stored, with the ids of this workspace's objects written as references. */
export function actionsToRefs(actions: unknown, names: Names): Record<string, unknown>[] {
  return mapIds(
    actions,
    (kind, value) => (typeof value === 'string' ? (refOf(kind, value, names) ?? value) : value),
    [],
  ) as Record<string, unknown>[];
}

/** What a reference names, or a problem with it. */
export type Resolve = (kind: RefKind, ref: Ref) => string | { problem: string };

/**
 * Actions of a document with their references replaced by ids (`resolve`); each reference
 * that names nothing is a problem at its path. A reference of the wrong kind is one too.
 */
export function actionsFromRefs(
  actions: unknown,
  resolve: Resolve,
  problems: { path: (string | number)[]; message: string }[],
): Record<string, unknown>[] {
  return mapIds(
    actions,
    (kind, value, path) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const ref = value as Record<string, unknown>;
      const keys = Object.keys(ref);
      const expected = `$${kind}`;
      if (keys.length !== 1 || keys[0] !== expected || !isRefValue(kind, ref[expected])) {
        problems.push({ path, message: `must be an id, a template or ${refExample(kind)}` });
        return value;
      }
      const found = resolve(kind, ref as Ref);
      if (typeof found === 'string') return found;
      problems.push({ path, message: found.problem });
      return value;
    },
    [],
  ) as Record<string, unknown>[];
}

function isRefValue(kind: RefKind, value: unknown): boolean {
  if (kind === 'stage')
    return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string');
  return typeof value === 'string';
}

function refExample(kind: RefKind): string {
  switch (kind) {
    case 'folder':
      return '{ "$folder": "<folder name>" }';
    case 'pipeline':
      return '{ "$pipeline": "<pipeline name>" }';
    case 'stage':
      return '{ "$stage": ["<pipeline name>", "<stage name>"] }';
    case 'user':
      return '{ "$user": "<a member’s email>" }';
  }
}
