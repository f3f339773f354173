import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import { loadFolder } from '../folders/load-folder.ts';
import { queryRecords } from '../records/find-records.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { jobActorOf, jobOutputOf } from './job-row.ts';
import { queueJob } from './queue-job.ts';
import { requireScope } from './require-scope.ts';
import type { createExportJobInput } from './schemas.ts';

/**
 * `POST /jobs/exports`: a QUEUED job that writes every record of the folder that the filter and
 * `q` match, in the sort's order, to a file (docs/jobs.md, "Exports"). The list is asked once
 * now, so a filter, sort or field the folder cannot take is a 400 before the job is made.
 */
export async function createExportJob(
  db: Database,
  actor: Actor,
  input: z.output<typeof createExportJobInput>,
) {
  requireScope(actor, 'records:read');
  const folder = await loadFolder(db, actor, input.folderId);
  const keys = new Set(folder.fields.map((field) => field.key));
  for (const [n, field] of (input.fields ?? []).entries()) {
    if (!field.startsWith('data.') || !keys.has(field.slice(5)))
      throw invalid(`fields.${n}`, `${field} is not a field of the folder (give data.<key>)`);
  }
  await queryRecords(db, actor, listInput(input, undefined, 1));
  const id = newId('job');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.jobs)
      .values({
        workspaceId: actor.workspaceId,
        id,
        type: 'EXPORT',
        status: 'QUEUED',
        params: { ...input, folderId: folder.id },
        actor: jobActorOf(actor),
        requestId: actor.provenance?.requestId ?? null,
      })
      .returning();
    await queueJob(tx, { workspaceId: actor.workspaceId, id });
    await audit(tx, actor, {
      action: 'job.created',
      target: { type: 'job', id },
      details: {
        type: 'EXPORT',
        folderId: folder.id,
        format: input.format,
        filter: input.filter ?? null,
        q: input.q ?? null,
      },
    });
    return jobOutputOf(tx, row ?? missing('the job row the insert returned'));
  });
}

/** The `POST /records/query` body of an export's page after `cursor`. */
export function listInput(
  input: Pick<z.output<typeof createExportJobInput>, 'folderId' | 'filter' | 'q' | 'sort'>,
  cursor: string | undefined,
  pageSize: number,
) {
  return {
    folderId: input.folderId,
    ...(input.filter ? { filter: input.filter } : {}),
    ...(input.q ? { q: input.q } : {}),
    ...(input.sort ? { sort: input.sort } : {}),
    ...(cursor ? { cursor } : {}),
    pageSize,
  };
}
