import { type Database, schema } from '@crm/db';
import {
  type Actor,
  DomainError,
  getRecord,
  prepared,
  type RowRef,
  type RunRow,
  rightsOf,
  type StepRecords,
  stepRecordsOf,
  stepRowsOfRun,
  type TemplateScope,
} from '@crm/domain';
import { and, eq, sql } from 'drizzle-orm';

/**
 * Who a run acts as: the user who created the workflow (comment author, whose rights it
 * has), or, once that user has left the workspace, its owner; the changes it makes are
 * recorded as the run's. Null when the workspace has no member left.
 */
export interface RunWithActor {
  run: RunRow;
  /** The run's step records (`loadStepRecords`). */
  records: StepRecords;
  actor: Actor | null;
  /** The workflow's name and who is told when a run fails (docs/workflows.md, "Failures"). */
  workflow: { name: string; notifyOnFailure: string[] };
}

/**
 * A run, its step records and the user it acts as, in one round trip; undefined when the run
 * is gone. Every job of a run starts with it, so it is a prepared statement, planned once per
 * connection (its subqueries cost more to plan each time than to run).
 */
export async function loadRunWithActor(db: Database, ref: RowRef): Promise<RunWithActor | undefined> {
  const { id, workspaceId } = ref;
  const [row] = workspaceId
    ? await prepared(db, 'load_run_with_actor', (db) => runWithActor(db, true)).execute({ id, workspaceId })
    : await prepared(db, 'load_run_with_actor_by_id', (db) => runWithActor(db, false)).execute({ id });
  if (!row) return undefined;
  const { run, member } = row;
  const workflowName = row.workflow?.name ?? null;
  return {
    run,
    records: stepRecordsOf(run.steps, row.steps),
    workflow: { name: workflowName ?? run.workflowId, notifyOnFailure: row.workflow?.notifyOnFailure ?? [] },
    actor: member
      ? {
          workspaceId: run.workspaceId,
          userId: member.id,
          userName: member.name,
          role: member.role,
          apiKeyId: null,
          scopes: rightsOf(member.role),
          folderIds: null,
          // What the run changes is recorded as the run's (docs/api.md, "History and provenance").
          provenance: {
            actor: { type: 'workflow', id: run.id, name: workflowName ?? run.workflowId },
            source: 'workflow',
            requestId: null,
          },
        }
      : null,
  };
}

/** The select of `loadRunWithActor`, by the run's id and, when `inWorkspace`, its workspace. */
function runWithActor(db: Database, inWorkspace: boolean) {
  const r = schema.workflowRuns;
  const byId = eq(r.id, sql.placeholder('id'));
  return db
    .select({
      run: r,
      workflow: sql<{ name: string; notifyOnFailure: string[] } | null>`(
        select json_build_object('name', w.name, 'notifyOnFailure', w.notify_on_failure) from workflows w
         where w.workspace_id = workflow_runs.workspace_id and w.id = workflow_runs.workflow_id)`,
      member: sql<{ id: string; name: string; role: Actor['role'] } | null>`(
        select json_build_object('id', u.id, 'name', u.name, 'role', m.role)
          from memberships m
          join users u on u.id = m.user_id
          left join workflows w on w.workspace_id = m.workspace_id and w.id = workflow_runs.workflow_id
         where m.workspace_id = workflow_runs.workspace_id
         order by (m.user_id = w.created_by) desc nulls last, (m.role = 'OWNER') desc, m.user_id
         limit 1)`,
      steps: stepRowsOfRun,
    })
    .from(r)
    .where(inWorkspace ? and(eq(r.workspaceId, sql.placeholder('workspaceId')), byId) : byId)
    .prepare(inWorkspace ? 'load_run_with_actor' : 'load_run_with_actor_by_id');
}

/** A template of these parameters reads the context record (`{{ record… }}` or `[[ record… ]]`). */
const READS_RECORD = /(?:\{\{|\[\[)\s*record\b/;

/**
 * What the templates of the next step can read: the trigger, the context record, earlier
 * outputs (`steps`, by index and name), and inside a loop its item. The record is loaded only
 * when the step reads it: a template of `params` names it, or `always` (a CODE step).
 */
export async function buildScope(
  db: Database,
  run: RunRow,
  actor: Actor,
  reads: { params: Record<string, unknown>; always?: boolean },
  steps: TemplateScope['steps'],
  loop: { item: unknown; index: number } | null,
): Promise<TemplateScope> {
  let record: unknown = null;
  if (run.contextRecordId && (reads.always || READS_RECORD.test(JSON.stringify(reads.params)))) {
    try {
      record = await getRecord(db, actor, { id: run.contextRecordId });
    } catch (error) {
      // A context record moved to Trash reads as null; the step that needs it says so.
      if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
    }
  }
  return {
    trigger: { body: run.input, recordId: run.recordId, type: run.trigger },
    record,
    steps,
    ...(loop ? { item: loop.item, loop: { index: loop.index } } : {}),
  };
}
