import type { Database } from '@crm/db';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { makeJob } from './make-job.ts';
import { requireScope } from './require-scope.ts';
import type { createImportJobInput } from './schemas.ts';

/**
 * `POST /jobs/imports`: a job AWAITING_FILE, whose file the caller then PUTs to its
 * `uploadUrl` (docs/jobs.md, "Imports"). The folder and every custom field the mapping, the
 * upsert key and the relations name are checked now, so a mistake is a 400 before any upload.
 */
export async function createImportJob(
  db: Database,
  actor: Actor,
  input: z.output<typeof createImportJobInput>,
) {
  requireScope(actor, 'records:write');
  const folder = await loadFolder(db, actor, input.folderId);
  const keys = new Set(folder.fields.map((field) => field.key));
  const named = (target: string, path: string) => {
    if (target.startsWith('data.') && !keys.has(target.slice(5)))
      throw invalid(path, `the folder has no field ${target.slice(5)}`);
  };
  for (const [column, target] of Object.entries(input.mapping)) named(target, `mapping.${column}`);
  if (input.upsertBy) {
    named(input.upsertBy, 'upsertBy');
    if (!Object.values(input.mapping).includes(input.upsertBy))
      throw invalid('upsertBy', `no column of the mapping goes to ${input.upsertBy}`);
  }
  for (const key of Object.keys(input.relations ?? {})) {
    named(key, `relations.${key}`);
    const field = folder.fields.find((f) => f.key === key.slice(5));
    if (field?.type !== 'RELATION') throw invalid(`relations.${key}`, `${key} is not a RELATION field`);
  }
  return makeJob(
    db,
    actor,
    {
      type: 'IMPORT',
      status: 'AWAITING_FILE',
      params: { ...input, folderId: folder.id },
      notify: input.notify ?? true,
    },
    { folderId: folder.id, format: input.format, dryRun: input.dryRun ?? false },
  );
}
