import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { jobActorOf, jobOutputOf } from './job-row.ts';
import { queueJob } from './queue-job.ts';
import type { JobOutput } from './schemas.ts';

type NewJob = Pick<typeof schema.jobs.$inferInsert, 'type' | 'status' | 'params' | 'notify' | 'revertOf'>;

/**
 * Makes a job for `actor` in one transaction: its row (with a snapshot of the actor, whose
 * rights it runs with), its queue job when it is QUEUED, and the audit entry `job.created`
 * with `details` beside its type. Answers the job as `GET /jobs/{id}` shows it.
 */
export async function makeJob(
  db: Database,
  actor: Actor,
  job: NewJob,
  details: Record<string, unknown>,
): Promise<JobOutput> {
  const id = newId('job');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.jobs)
      .values({
        workspaceId: actor.workspaceId,
        id,
        ...job,
        actor: jobActorOf(actor),
        requestId: actor.provenance?.requestId ?? null,
      })
      .returning();
    if (job.status === 'QUEUED') await queueJob(tx, { workspaceId: actor.workspaceId, id });
    await audit(tx, actor, {
      action: 'job.created',
      target: { type: 'job', id },
      details: { type: job.type, ...details },
    });
    return jobOutputOf(tx, row ?? missing('the job row the insert returned'));
  });
}
