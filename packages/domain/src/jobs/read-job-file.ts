import type { Database } from '@crm/db';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { readParts } from './job-files.ts';
import { loadJob } from './job-row.ts';
import type { OutgoingFile } from './outgoing-file.ts';
import { jobFormats, type jobIdInput } from './schemas.ts';

/** `GET /jobs/{id}/file`: an export's file once it SUCCEEDED, for 24 hours (410 after). */
export async function readJobFile(
  db: Database,
  actor: Actor,
  input: z.output<typeof jobIdInput>,
): Promise<OutgoingFile> {
  const job = await loadJob(db, actor, input.id);
  if (job.type !== 'EXPORT') throw new DomainError('CONFLICT', 'Only an export has a file to download');
  if (job.status !== 'SUCCEEDED')
    throw new DomainError('CONFLICT', `The export has no file yet: it is ${job.status}`);
  if (job.expiresAt && job.expiresAt.getTime() <= Date.now())
    throw new DomainError(
      'GONE',
      `The export's file was kept until ${job.expiresAt.toISOString()}; export again`,
    );
  const format = (job.params as { format: keyof typeof jobFormats }).format;
  return {
    mediaType: jobFormats[format],
    fileName: `${job.id}.${format}`,
    body: readParts(db, { workspaceId: job.workspaceId, jobId: job.id }, 'output'),
  };
}
