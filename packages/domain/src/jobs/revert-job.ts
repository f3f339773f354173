import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { loadJob } from './job-row.ts';
import { makeUpdateJob } from './make-update-job.ts';
import { requireScope } from './require-scope.ts';
import type { createUpdateJobInput, JobOutput } from './schemas.ts';

/**
 * `POST /jobs/{id}/revert`: a new update job that sets each field an update job changed back
 * to what it was, on every record where that field has not changed since (and takes back out
 * of Trash what it trashed); its results say, per record, what was set back and what was left.
 */
export async function revertJob(db: Database, actor: Actor, input: { id: string }): Promise<JobOutput> {
  requireScope(actor, 'records:write');
  const job = await loadJob(db, actor, input.id);
  if (job.type !== 'UPDATE' || job.revertOf !== null)
    throw new DomainError('CONFLICT', 'Only an update job can be reverted');
  if (!['SUCCEEDED', 'CANCELLED', 'FAILED'].includes(job.status))
    throw new DomainError('CONFLICT', `The job has not ended: it is ${job.status}`);
  const params = job.params as z.output<typeof createUpdateJobInput>;
  return makeUpdateJob(
    db,
    actor,
    { folderId: params.folderId, ...(params.trash ? { trash: true } : {}) },
    job.id,
  );
}
