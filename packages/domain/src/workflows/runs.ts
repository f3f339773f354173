import { type Database, type Executor, isSharded, schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';
import { afterCursor, keysetOrder } from '../shared/keyset.ts';
import { resolvePaging, toPage } from '../shared/paging.ts';
import { loadWorkflow } from './find-workflows.ts';
import type { findRunsInput } from './schemas.ts';
import { type RunRow, serializeRun } from './serialize.ts';

/** Runs (and their step records) are kept this long (docs/workflows.md, "Runs"). */
export const RUN_RETENTION_DAYS = 30;

export interface NewRun {
  workspaceId: string;
  workflowId: string;
  trigger: 'INCOMING_WEBHOOK' | 'EVENT' | 'RERUN';
  input: unknown;
  recordId: string | null;
  actions: Record<string, unknown>[];
  rerunOf?: string | null;
  eventId?: string | null;
}

/**
 * Inserts a QUEUED run and queues the job that executes it, in the caller's transaction: a
 * run exists exactly when its job does. (A job that runs twice after a crash is harmless: the
 * engine advances a run only from the step it read.) An event starts a workflow at most
 * once: a second run for the same event is skipped (the returned id is then not stored).
 *
 * One statement on one server. `sharded` (from `isSharded`): a sharded database runs a
 * statement naming the workspace on the node that holds it, where the job queue is not, so
 * there the run is written first and its job queued by a second statement, on the
 * coordinator, when the run was written (docs/scaling.md).
 */
export async function queueRun(tx: Executor, run: NewRun, sharded: boolean): Promise<string> {
  const id = newId('run');
  const insert = sql`
      insert into workflow_runs (workspace_id, id, workflow_id, trigger, input, record_id, context_record_id, actions, rerun_of, event_id)
      values (${run.workspaceId}, ${id}, ${run.workflowId}, ${run.trigger}, ${JSON.stringify(run.input)}::jsonb,
              ${run.recordId}, ${run.recordId}, ${JSON.stringify(run.actions)}::jsonb, ${run.rerunOf ?? null}, ${run.eventId ?? null})
      on conflict (workspace_id, workflow_id, event_id) where event_id is not null do nothing
      returning workspace_id, id`;
  if (!sharded) {
    await tx.execute(sql`
    with run as (${insert}
    )
    select graphile_worker.add_job('run_workflow', json_build_object('runId', run.id, 'workspaceId', run.workspace_id),
      max_attempts := 25)
    from run`);
    return id;
  }
  const written = await tx.execute(insert);
  if (written.rows.length > 0) {
    await tx.execute(sql`
      select graphile_worker.add_job('run_workflow', json_build_object('runId', ${id}::text, 'workspaceId', ${run.workspaceId}::text),
        max_attempts := 25)`);
  }
  return id;
}

export async function loadRun(tx: Executor, actor: Pick<Actor, 'workspaceId'>, id: string): Promise<RunRow> {
  if (!isId('run', id)) throw notFound('Run', id);
  const r = schema.workflowRuns;
  const [row] = await tx
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, actor.workspaceId), eq(r.id, id)));
  if (!row) throw notFound('Run', id);
  return row;
}

/** A workflow's runs, newest first, optionally of one status. */
export async function findRuns(db: Database, actor: Actor, input: z.infer<typeof findRunsInput>) {
  const workflow = await loadWorkflow(db, actor, input.id);
  const paging = resolvePaging(input);
  const r = schema.workflowRuns;
  const rows = await db
    .select()
    .from(r)
    .where(
      and(
        eq(r.workspaceId, actor.workspaceId),
        eq(r.workflowId, workflow.id),
        input.status ? eq(r.status, input.status) : undefined,
        afterCursor(r.createdAt, r.id, paging, 'desc'),
      ),
    )
    .orderBy(...keysetOrder(r.createdAt, r.id, 'desc'))
    .limit(paging.pageSize + 1)
    .offset(paging.kind === 'offset' ? paging.offset : 0);
  return toPage(rows, paging, serializeRun);
}

export async function getRun(db: Database, actor: Actor, id: string) {
  return serializeRun(await loadRun(db, actor, id));
}

/**
 * Runs a finished run again, by hand: a new run (its `rerunOf` the old one) with the same
 * input and context record and the workflow's current actions. A run still QUEUED or RUNNING
 * is a 409; a disabled workflow is a 400.
 */
export async function rerun(db: Database, actor: Actor, id: string) {
  const sharded = await isSharded(db);
  return db.transaction(async (tx) => {
    const previous = await loadRun(tx, actor, id);
    if (previous.status === 'QUEUED' || previous.status === 'RUNNING') {
      throw new DomainError(
        'CONFLICT',
        `Run ${id} is still ${previous.status}; re-run it once it has finished`,
      );
    }
    const workflow = await loadWorkflow(tx, actor, previous.workflowId, { lock: 'share' });
    if (!workflow.enabled) {
      throw new DomainError('VALIDATION_FAILED', `Workflow ${workflow.id} is disabled; enable it to re-run`);
    }
    const runId = await queueRun(
      tx,
      {
        workspaceId: actor.workspaceId,
        workflowId: workflow.id,
        trigger: 'RERUN',
        input: previous.input,
        recordId: previous.recordId,
        actions: workflow.actions,
        rerunOf: previous.id,
      },
      sharded,
    );
    return serializeRun(await loadRun(tx, actor, runId));
  });
}

/** Drops runs past their 30 days. */
export async function pruneRuns(db: Database, olderThanDays = RUN_RETENTION_DAYS): Promise<number> {
  const result = await db.execute(
    sql`delete from workflow_runs where created_at < now() - make_interval(days => ${olderThanDays})`,
  );
  return result.rowCount ?? 0;
}
