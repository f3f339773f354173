import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { jobOutputOf, loadJob } from './job-row.ts';
import type { jobIdInput } from './schemas.ts';

/** `GET /jobs/{id}`: a job with its progress. */
export async function getJob(db: Database, actor: Actor, input: z.output<typeof jobIdInput>) {
  return jobOutputOf(db, await loadJob(db, actor, input.id));
}
