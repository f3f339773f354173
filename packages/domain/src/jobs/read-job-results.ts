import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { readParts } from './job-files.ts';
import { loadJob } from './job-row.ts';
import type { OutgoingFile } from './outgoing-file.ts';
import { jobFormats, type jobIdInput } from './schemas.ts';

/**
 * `GET /jobs/{id}/results`: one NDJSON line per row done so far (per record for an update), in
 * row order (docs/jobs.md, "Results"). Readable while the job runs: each chunk's lines are
 * there once the chunk committed.
 */
export async function readJobResults(
  db: Database,
  actor: Actor,
  input: z.output<typeof jobIdInput>,
): Promise<OutgoingFile> {
  const job = await loadJob(db, actor, input.id);
  return {
    mediaType: jobFormats.ndjson,
    fileName: `${job.id}-results.ndjson`,
    body: readParts(db, { workspaceId: job.workspaceId, jobId: job.id }, 'results'),
  };
}
