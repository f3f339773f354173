import { type Database, schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { updateTask } from '../tasks/update-task.ts';
import { loadRun } from './load-run.ts';
import { queueRunJob } from './queue-run.ts';
import { serializeRuns } from './serialize.ts';

/**
 * `POST /runs/{id}/approve` and `/reject` (docs/workflows.md, "APPROVAL"): answers the step a
 * run waits on, by its assignee or an owner or admin (403 otherwise). The step's output is
 * `{ approved, by, comment, at }`, its task is completed and the run is queued to go on. A
 * run not waiting for an approval (answered, timed out, cancelled) is a 409.
 */
export async function answerApproval(
  db: Database,
  actor: Actor,
  input: { id: string; comment?: string | undefined },
  approved: boolean,
) {
  return db.transaction(async (tx) => {
    const run = await loadRun(tx, actor, input.id, { lock: 'update' });
    const s = schema.workflowRunSteps;
    const [step] = await tx
      .select()
      .from(s)
      .where(
        and(
          eq(s.workspaceId, actor.workspaceId),
          eq(s.runId, run.id),
          eq(s.status, 'WAITING'),
          eq(s.action, 'APPROVAL'),
        ),
      );
    if (run.status !== 'WAITING' || !step)
      throw new DomainError('CONFLICT', `Run ${run.id} is not waiting for an approval (it is ${run.status})`);
    const waiting = (step.output ?? {}) as { taskId?: string; assigneeId?: string };
    if (waiting.assigneeId !== actor.userId && actor.role !== 'OWNER' && actor.role !== 'ADMIN')
      throw new DomainError(
        'FORBIDDEN',
        'Only the assignee of the approval, an owner or an admin can answer it',
      );
    const at = new Date().toISOString();
    const output = { ...waiting, approved, by: actor.userId, comment: input.comment ?? null, at };
    await tx.execute(sql`
      update workflow_run_steps
         set status = 'SUCCEEDED', output = ${JSON.stringify(output)}::jsonb, resume_at = null, finished_at = ${at}
       where workspace_id = ${actor.workspaceId} and run_id = ${run.id} and path = ${step.path}`);
    // The run's version moves on, so a timeout job already running loses to this answer.
    await tx.execute(sql`
      update workflow_runs set status = 'QUEUED', resume_at = null, next_step = next_step + 1, updated_at = now()
       where workspace_id = ${actor.workspaceId} and id = ${run.id}`);
    await queueRunJob(tx, { workspaceId: actor.workspaceId, id: run.id });
    if (waiting.taskId) {
      try {
        await updateTask(tx as unknown as Database, actor, { id: waiting.taskId, status: 'DONE' });
      } catch (error) {
        // The task may have been deleted or completed by hand; the answer stands.
        if (!(error instanceof DomainError)) throw error;
      }
    }
    await audit(tx, actor, {
      action: approved ? 'run.approved' : 'run.rejected',
      target: { type: 'run', id: run.id },
      details: { path: step.path, ...(input.comment ? { comment: input.comment } : {}) },
    });
    const [shown] = await serializeRuns(tx, actor.workspaceId, [await loadRun(tx, actor, run.id)]);
    return shown ?? missing('run');
  });
}
