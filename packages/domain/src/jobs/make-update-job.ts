import type { Database } from '@crm/db';
import type { Actor } from '../shared/actor.ts';
import { makeJob } from './make-job.ts';
import type { JobOutput } from './schemas.ts';

/**
 * A QUEUED update job with these parameters: a new one (`revertOf` null), or one that sets
 * back what the update job `revertOf` changed.
 */
export function makeUpdateJob(
  db: Database,
  actor: Actor,
  params: Record<string, unknown>,
  revertOf: string | null,
): Promise<JobOutput> {
  return makeJob(db, actor, { type: 'UPDATE', status: 'QUEUED', params, revertOf }, { ...params, revertOf });
}
