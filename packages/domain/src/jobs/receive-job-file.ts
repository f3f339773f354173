import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { partWriter } from './job-files.ts';
import { jobOutputOf, loadJob } from './job-row.ts';
import { queueJob } from './queue-job.ts';
import { readUpload } from './read-upload.ts';
import { JOB_FILE_LIMITS, jobFormats, type receiveJobFileInput } from './schemas.ts';

/**
 * `PUT /jobs/{id}/file`: an import's file, read as it arrives (never whole in memory), checked
 * (readUpload) and kept in parts in the same transaction that makes the job QUEUED and queues
 * it: a refused or broken upload keeps nothing, and the job still awaits its file.
 */
export async function receiveJobFile(
  db: Database,
  actor: Actor,
  input: z.output<typeof receiveJobFileInput>,
) {
  const job = await loadJob(db, actor, input.id);
  if (job.type !== 'IMPORT') throw new DomainError('CONFLICT', 'Only an import takes a file');
  if (job.status !== 'AWAITING_FILE')
    throw new DomainError('CONFLICT', `The job has its file already; it is ${job.status}`);
  const format = (job.params as { format: keyof typeof jobFormats }).format;
  const mediaType = input.file.mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== jobFormats[format]) {
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The job imports ${format}: send the file with Content-Type: ${jobFormats[format]}`,
    );
  }
  if (input.file.declaredBytes !== undefined && input.file.declaredBytes > JOB_FILE_LIMITS.bytes) {
    throw new DomainError('PAYLOAD_TOO_LARGE', 'The file is over the limit of 1 GiB');
  }
  const mapping = (job.params as { mapping: Record<string, string> }).mapping;
  return db.transaction(async (tx) => {
    // Taken first, so that two uploads of one job queue: the second finds it QUEUED.
    const locked = await loadJob(tx, actor, input.id, true);
    if (locked.status !== 'AWAITING_FILE')
      throw new DomainError('CONFLICT', `The job has its file already; it is ${locked.status}`);
    const parts = partWriter(tx, { workspaceId: actor.workspaceId, jobId: job.id }, 'input');
    const file = await readUpload(
      input.file.body,
      { mediaType, mappedColumns: format === 'csv' ? Object.keys(mapping) : [] },
      (chunk) => parts.write(chunk),
    );
    await parts.flush();
    const [row] = await tx
      .update(schema.jobs)
      .set({
        status: 'QUEUED',
        file: { ...file, parts: parts.nextPart },
        total: file.rows,
        checkpoint: { row: 0, offset: file.bodyOffset },
      })
      .where(and(eq(schema.jobs.workspaceId, actor.workspaceId), eq(schema.jobs.id, job.id)))
      .returning();
    await queueJob(tx, job);
    return jobOutputOf(tx, row ?? locked);
  });
}
