import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import type { z } from 'zod';
import { audit } from '../audit/append-audit.ts';
import { loadFolder } from '../folders/load-folder.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { jobActorOf, jobOutputOf } from './job-row.ts';
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
  const id = newId('job');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.jobs)
      .values({
        workspaceId: actor.workspaceId,
        id,
        type: 'IMPORT',
        status: 'AWAITING_FILE',
        params: { ...input, folderId: folder.id },
        actor: jobActorOf(actor),
        requestId: actor.provenance?.requestId ?? null,
        notify: input.notify ?? true,
      })
      .returning();
    await audit(tx, actor, {
      action: 'job.created',
      target: { type: 'job', id },
      details: { type: 'IMPORT', folderId: folder.id, format: input.format, dryRun: input.dryRun ?? false },
    });
    return jobOutputOf(tx, row ?? missing('the job row the insert returned'));
  });
}
