import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import { loadFolder } from '../folders/load-folder.ts';
import { queryRecords } from '../records/find-records.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { listInput } from './create-export-job.ts';
import { jobActorOf, jobOutputOf, loadJob } from './job-row.ts';
import { queueJob } from './queue-job.ts';
import { requireScope } from './require-scope.ts';
import type { createUpdateJobInput, JobOutput } from './schemas.ts';

type UpdateInput = z.output<typeof createUpdateJobInput>;

/**
 * `POST /jobs/updates`: with `dryRun`, how many records of the folder match now (`{ matched }`);
 * otherwise a QUEUED job that applies `set` (or moves to Trash) every record that matched when
 * it started (docs/jobs.md, "Updates"). The list is asked now, so a filter the folder cannot
 * take is a 400 before the job is made.
 */
export async function createUpdateJob(
  db: Database,
  actor: Actor,
  input: UpdateInput,
): Promise<{ matched: number } | JobOutput> {
  requireScope(actor, 'records:write');
  if (!input.set && !input.trash) throw invalid('set', 'give what to set, or trash: true');
  if (input.set && input.trash) throw invalid('trash', 'either set values or move to Trash, not both');
  const folder = await loadFolder(db, actor, input.folderId);
  const first = await queryRecords(db, actor, { ...listInput(input, undefined, 1), count: true });
  if (input.dryRun) return { matched: first.meta.total ?? 0 };
  return makeUpdateJob(db, actor, { ...input, folderId: folder.id }, null);
}

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
  const params = job.params as UpdateInput;
  return makeUpdateJob(
    db,
    actor,
    { folderId: params.folderId, ...(params.trash ? { trash: true } : {}) },
    job.id,
  );
}

async function makeUpdateJob(
  db: Database,
  actor: Actor,
  params: Record<string, unknown>,
  revertOf: string | null,
): Promise<JobOutput> {
  const id = newId('job');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.jobs)
      .values({
        workspaceId: actor.workspaceId,
        id,
        type: 'UPDATE',
        status: 'QUEUED',
        params,
        actor: jobActorOf(actor),
        requestId: actor.provenance?.requestId ?? null,
        revertOf,
      })
      .returning();
    await queueJob(tx, { workspaceId: actor.workspaceId, id });
    await audit(tx, actor, {
      action: 'job.created',
      target: { type: 'job', id },
      details: { type: 'UPDATE', ...params, revertOf },
    });
    return jobOutputOf(tx, row ?? missing('the job row the insert returned'));
  });
}
