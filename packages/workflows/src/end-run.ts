import type { Database, Executor } from '@crm/db';
import { type Actor, appendEvent, createTask, createTaskInput, DomainError } from '@crm/domain';
import { markAsWorkflows, type RunState, save } from './save-run.ts';

/**
 * Ends a run (SUCCEEDED or FAILED). A failure writes the `workflow.run_failed` event (to
 * webhooks, the event feed and workflows listening for it, never the same workflow) and a task
 * for each member of `notifyOnFailure`, in the transaction that records it.
 */
export async function endRun(
  db: Database,
  sharded: boolean,
  state: RunState,
  status: 'SUCCEEDED' | 'FAILED',
  error?: string,
  failedStep?: { path: string; name: string | null; error: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const result = await save(tx, sharded, state, { status, ...(error ? { error } : {}) });
    if (status === 'FAILED' && state.actor && result === 'FAILED')
      await announceFailure(tx, state, state.actor, error ?? '', failedStep);
  });
}

async function announceFailure(
  tx: Executor,
  state: RunState,
  actor: Actor,
  error: string,
  step: { path: string; name: string | null; error: string | null } | undefined,
): Promise<void> {
  const { run, workflow } = state;
  // A run started by another run's failure starts no workflow when it fails in turn: two
  // workflows that watch each other's failures cannot start each other forever.
  const input = run.input as { event?: unknown } | null;
  if (run.trigger === 'EVENT' && input?.event === 'workflow.run_failed')
    await markAsWorkflows(tx, run.id, 'failed');
  await appendEvent(tx, actor, 'workflow.run_failed', {
    workflowId: run.workflowId,
    workflowName: workflow.name,
    runId: run.id,
    recordId: run.contextRecordId,
    step: step ? { path: step.path, name: step.name } : null,
    error: step?.error ?? error,
  });
  for (const userId of workflow.notifyOnFailure) {
    try {
      await createTask(
        tx as unknown as Database,
        actor,
        createTaskInput.parse({
          title: `Automation “${workflow.name}” failed: ${error}`.slice(0, 500),
          assigneeId: userId,
          type: 'TODO',
          priority: 'HIGH',
        }),
      );
    } catch (refused) {
      // A member who has left the workspace is not told; the others are.
      if (!(refused instanceof DomainError)) throw refused;
    }
  }
}
