import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { loadRun } from './load-run.ts';
import { runJobKey } from './queue-run.ts';
import { serializeRuns } from './serialize.ts';

/**
 * `POST /runs/{id}/cancel` (docs/workflows.md, "Runs"): ends a QUEUED, RUNNING or WAITING run
 * as CANCELLED. A step in flight finishes and is recorded; nothing after it runs. The job a
 * waiting run had is removed. A run that has ended is a 409.
 */
export async function cancelRun(db: Database, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const run = await loadRun(tx, actor, id, { lock: 'update' });
    if (run.status !== 'QUEUED' && run.status !== 'RUNNING' && run.status !== 'WAITING')
      throw new DomainError('CONFLICT', `Run ${id} has already ended (${run.status})`);
    await tx.execute(sql`
      update workflow_runs set status = 'CANCELLED', resume_at = null, finished_at = now(), updated_at = now()
       where workspace_id = ${actor.workspaceId} and id = ${run.id}`);
    // A run's job, if not taken by a worker yet; one that is finds the run CANCELLED and stops.
    await tx.execute(sql`select graphile_worker.remove_job(${runJobKey(run.id)})`);
    await audit(tx, actor, {
      action: 'run.cancelled',
      target: { type: 'run', id: run.id },
      details: { was: run.status },
    });
    const [shown] = await serializeRuns(tx, actor.workspaceId, [await loadRun(tx, actor, id)]);
    return shown ?? missing('run');
  });
}
