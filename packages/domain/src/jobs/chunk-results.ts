import type { Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DomainError } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';
import { issueDetails } from '../shared/zod-issues.ts';
import { writePart } from './job-files.ts';
import { JOB_LEASE_SECONDS, type JobRow } from './job-row.ts';

const j = schema.jobs;

/** One line of a job's results (docs/jobs.md, "Results"). */
export interface ResultLine {
  row: number;
  status: 'created' | 'updated' | 'unchanged' | 'refused';
  recordId: string | null;
  errors: { path: string; message: string }[];
}

/** A refused item's errors as a result line names them: the batch item's `details`, or its message. */
export function errorsOf(error: DomainError | z.ZodError): ResultLine['errors'] {
  if (error instanceof z.ZodError) return issueDetails(error);
  return error.details && error.details.length > 0 ? error.details : [{ path: '', message: error.message }];
}

/** Thrown in a chunk's transaction to roll it back: another runner moved the job on, or it was cancelled. */
export class ChunkNotTaken extends Error {}

/**
 * The end of a chunk's transaction (an import's or an update's): its result lines as the
 * results' part `part`, the job's counters moved on by them, its checkpoint past `last` (the
 * chunk's last row and where it ends in the file, or its last id's place in the list) and its
 * lease renewed, on the condition that the job is still RUNNING with its checkpoint at `from`
 * (where this chunk starts). Otherwise ChunkNotTaken is thrown, and the chunk's transaction
 * rolls back whole: of two runners of one job (a worker thought dead while it was only slow,
 * or the CLI beside a worker), the second to commit a chunk writes nothing. What makes a chunk
 * count once is that all of it commits with its writes, or none of it.
 */
export async function commitChunk(
  tx: Executor,
  job: JobRow,
  part: number,
  lines: ResultLine[],
  from: number,
  last: { row: number; end: number },
): Promise<void> {
  const counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const line of lines) counts[line.status]++;
  const moved = await tx
    .update(j)
    .set({
      rowsRead: sql`${j.rowsRead} + ${lines.length}`,
      created: sql`${j.created} + ${counts.created}`,
      updated: sql`${j.updated} + ${counts.updated}`,
      unchanged: sql`${j.unchanged} + ${counts.unchanged}`,
      refused: sql`${j.refused} + ${counts.refused}`,
      checkpoint: { row: last.row, offset: last.end, part: part + 1 },
      leasedUntil: sql`now() + make_interval(secs => ${JOB_LEASE_SECONDS})`,
    })
    .where(
      and(
        eq(j.workspaceId, job.workspaceId),
        eq(j.id, job.id),
        eq(j.status, 'RUNNING'),
        sql`(${j.checkpoint}->>'row')::int = ${from}`,
      ),
    )
    .returning({ id: j.id });
  if (moved.length === 0) throw new ChunkNotTaken();
  const text = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
  await writePart(tx, { workspaceId: job.workspaceId, jobId: job.id }, 'results', part, Buffer.from(text));
}

/** The last item of a non-empty chunk. */
export function lastOf<T>(chunk: readonly T[]): T {
  return chunk[chunk.length - 1] ?? missing('the last item of a chunk');
}
