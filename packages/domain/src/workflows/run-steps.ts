import { type Executor, schema } from '@crm/db';
import type { RunStep, StepStatus } from '@crm/db/schema';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { toInstant } from '../shared/schemas.ts';
import type { runStepOutput } from './schemas.ts';

type RunStepOutput = z.infer<typeof runStepOutput>;

/**
 * A run's steps (docs/workflows.md, "Runs"). Each step is named by its path in the action
 * tree: `2` (the third top-level action), `2.then.0` (the first action of its `then` arm),
 * `3.items.17.1` (the second action of a loop's body, for item 17). A run keeps a record for
 * each step that waited, failed or succeeded; the steps still to come are derived from the
 * actions the run was queued with.
 */
export interface StepRecord extends Omit<RunStep, 'index'> {
  path: string;
  name: string | null;
  /** A waiting step's end (DELAY) or timeout (APPROVAL). */
  resumeAt: string | null;
  /** The order in which the run first recorded it. */
  seq: number;
}

/** An action as a run keeps it: `{ type, ...parameters }`. */
export type RunAction = Record<string, unknown> & { type: string };

/** The run's steps by path: the rows of `workflow_run_steps`, over the by-index list older runs kept. */
export type StepRecords = Map<string, StepRecord>;

/** A record of the by-index list runs kept before steps had paths. */
function fromLegacy(step: RunStep): StepRecord {
  return {
    path: String(step.index),
    name: null,
    action: step.action,
    status: step.status,
    input: step.input,
    output: step.output,
    error: step.error,
    attempts: step.attempts,
    nextAttemptAt: step.nextAttemptAt,
    resumeAt: null,
    startedAt: step.startedAt,
    finishedAt: step.finishedAt,
    seq: step.index,
  };
}

/** A step row's values, as selected (times as Date) or as JSON (times as text). */
type StepRowValues = Omit<typeof schema.workflowRunSteps.$inferSelect, 'workspaceId' | 'runId' | Times> & {
  [K in Times]: Date | string | null;
};
type Times = 'nextAttemptAt' | 'resumeAt' | 'startedAt' | 'finishedAt';

function fromRow(row: StepRowValues): StepRecord {
  return {
    path: row.path,
    name: row.name,
    action: row.action,
    status: row.status,
    input: row.input,
    output: row.output,
    error: row.error,
    attempts: row.attempts,
    nextAttemptAt: toInstant(row.nextAttemptAt),
    resumeAt: toInstant(row.resumeAt),
    startedAt: toInstant(row.startedAt),
    finishedAt: toInstant(row.finishedAt),
    seq: row.seq,
  };
}

/** A run's records: its legacy by-index list (older runs), then its step rows over it. */
export function stepRecordsOf(legacy: readonly RunStep[], rows: readonly StepRowValues[]): StepRecords {
  const records: StepRecords = new Map();
  // Steps of the legacy list not run yet were written PENDING; they are derived instead.
  for (const step of legacy) if (step.status !== 'PENDING') records.set(String(step.index), fromLegacy(step));
  for (const row of rows) records.set(row.path, fromRow(row));
  return records;
}

/** The step records of runs of one workspace, by run id (runs given with their legacy list). */
export async function loadStepRecords(
  tx: Executor,
  workspaceId: string,
  runs: readonly { id: string; steps: RunStep[] }[],
): Promise<Map<string, StepRecords>> {
  if (runs.length === 0) return new Map();
  const s = schema.workflowRunSteps;
  const rows = await tx
    .select()
    .from(s)
    .where(
      and(
        eq(s.workspaceId, workspaceId),
        inArray(
          s.runId,
          runs.map((run) => run.id),
        ),
      ),
    )
    .orderBy(asc(s.runId), asc(s.seq));
  const rowsOf = new Map<string, StepRowValues[]>();
  for (const row of rows) {
    const list = rowsOf.get(row.runId);
    if (list) list.push(row);
    else rowsOf.set(row.runId, [row]);
  }
  return new Map(runs.map((run) => [run.id, stepRecordsOf(run.steps, rowsOf.get(run.id) ?? [])]));
}

/**
 * The step rows of the run a statement on `workflow_runs` reads, as a JSON list in the order
 * they were first recorded: a subquery, so that a run and its steps come in one round trip.
 */
export const stepRowsOfRun = sql<StepRowValues[]>`(
  select coalesce(json_agg(json_build_object(
           'path', s.path, 'name', s.name, 'action', s.action, 'status', s.status, 'input', s.input,
           'output', s.output, 'error', s.error, 'attempts', s.attempts, 'nextAttemptAt', s.next_attempt_at,
           'resumeAt', s.resume_at, 'startedAt', s.started_at, 'finishedAt', s.finished_at, 'seq', s.seq
         ) order by s.seq), '[]'::json)
    from workflow_run_steps s
   where s.workspace_id = workflow_runs.workspace_id and s.run_id = workflow_runs.id)`;

/** The actions of a nesting action, by the key that holds them. */
export function nestedActions(action: RunAction, key: string): RunAction[] {
  const list = action[key];
  return Array.isArray(list) ? (list as RunAction[]) : [];
}

/** The items a loop goes through, as its record keeps them once it has started. */
export function loopItems(record: StepRecord | undefined): unknown[] | null {
  const items = (record?.input as { items?: unknown } | null | undefined)?.items;
  return Array.isArray(items) ? items : null;
}

function pending(path: string, index: number, action: RunAction, status: StepStatus): RunStepOutput {
  return {
    path,
    name: typeof action.name === 'string' ? action.name : null,
    index,
    action: action.type,
    status,
    input: null,
    output: null,
    error: null,
    attempts: 0,
    nextAttemptAt: null,
    resumeAt: null,
    startedAt: null,
    finishedAt: null,
  };
}

function shown(record: StepRecord, index: number): RunStepOutput {
  const { seq: _seq, ...rest } = record;
  return { ...rest, index };
}

/**
 * Every step of a run in the order it runs: those with a record as recorded, the others
 * PENDING while the run goes on and SKIPPED once it has ended; the arm a branch did not take
 * SKIPPED; a loop's items that have started, each with its steps.
 */
export function viewSteps(
  actions: readonly RunAction[],
  records: StepRecords,
  ended: boolean,
): RunStepOutput[] {
  const out: RunStepOutput[] = [];
  const walk = (list: readonly RunAction[], prefix: string, skipped: boolean) => {
    list.forEach((action, index) => {
      const path = `${prefix}${index}`;
      const record = records.get(path);
      out.push(
        record
          ? shown(record, index)
          : pending(path, index, action, skipped || ended ? 'SKIPPED' : 'PENDING'),
      );
      if (action.type === 'BRANCH') {
        const decided = record?.status === 'SUCCEEDED';
        const passed = (record?.output as { passed?: boolean } | null)?.passed === true;
        walk(nestedActions(action, 'then'), `${path}.then.`, skipped || (decided && !passed));
        walk(nestedActions(action, 'else'), `${path}.else.`, skipped || (decided && passed));
      } else if (action.type === 'FOR_EACH') {
        const items = loopItems(record) ?? [];
        const body = nestedActions(action, 'actions');
        for (let k = 0; k < items.length; k++) {
          const itemPrefix = `${path}.items.${k}.`;
          // Items the loop has not reached are left out; the loop's own step counts them.
          if (!body.some((_a, j) => records.has(`${itemPrefix}${j}`))) continue;
          walk(body, itemPrefix, skipped);
        }
      }
    });
  };
  walk(actions, '', false);
  return out;
}
