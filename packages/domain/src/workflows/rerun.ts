import { type Database, isSharded } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { loadWorkflow } from './find-workflows.ts';
import { loadRun } from './load-run.ts';
import { queueRun } from './queue-run.ts';
import { serializeRuns } from './serialize.ts';

/**
 * Runs a finished run again, by hand: a new run (its `rerunOf` the old one) with the same
 * input and context record and the workflow's current actions. A run still QUEUED or RUNNING
 * is a 409; a disabled workflow is a 400.
 */
export async function rerun(db: Database, actor: Actor, id: string) {
  const sharded = await isSharded(db);
  return db.transaction(async (tx) => {
    const previous = await loadRun(tx, actor, id);
    if (previous.status === 'QUEUED' || previous.status === 'RUNNING' || previous.status === 'WAITING') {
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
    const [run] = await serializeRuns(tx, actor.workspaceId, [await loadRun(tx, actor, runId)]);
    return run ?? missing('run');
  });
}
