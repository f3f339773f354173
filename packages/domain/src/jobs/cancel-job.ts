import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { jobOutputOf, loadJob } from './job-row.ts';
import type { jobIdInput } from './schemas.ts';

/**
 * `POST /jobs/{id}/cancel`: a job that has not ended ends CANCELLED. What it wrote stays; a
 * running job stops before its next chunk (the chunk being applied, taking the job's row,
 * finishes first), and its progress says how far it got. 409 when it has ended.
 */
export async function cancelJob(db: Database, actor: Actor, input: z.output<typeof jobIdInput>) {
  return db.transaction(async (tx) => {
    const job = await loadJob(tx, actor, input.id, true);
    if (!['AWAITING_FILE', 'QUEUED', 'RUNNING'].includes(job.status))
      throw new DomainError('CONFLICT', `The job has ended: it is ${job.status}`);
    const [row] = await tx
      .update(schema.jobs)
      .set({ status: 'CANCELLED', finishedAt: sql`now()` })
      .where(and(eq(schema.jobs.workspaceId, actor.workspaceId), eq(schema.jobs.id, job.id)))
      .returning();
    await audit(tx, actor, {
      action: 'job.cancelled',
      target: { type: 'job', id: job.id },
      details: { was: job.status },
    });
    return jobOutputOf(tx, row ?? job);
  });
}
