import type { Database } from '@crm/db';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import { queryRecords } from '../records/query-records.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { listInput } from './list-input.ts';
import { makeJob } from './make-job.ts';
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
  return makeJob(
    db,
    actor,
    { type: 'EXPORT', status: 'QUEUED', params: { ...input, folderId: folder.id } },
    { folderId: folder.id, format: input.format, filter: input.filter ?? null, q: input.q ?? null },
  );
}
