import type { Database } from '@crm/db';
import type { z } from 'zod';
import { loadFolder } from '../folders/load-folder.ts';
import { queryRecords } from '../records/query-records.ts';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { listInput } from './list-input.ts';
import { makeUpdateJob } from './make-update-job.ts';
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
