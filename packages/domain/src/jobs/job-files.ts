import { type Executor, schema } from '@crm/db';
import type { JobFileKind } from '@crm/db/schema';
import { and, eq } from 'drizzle-orm';

/** A file is kept in parts of this size (the last one shorter): a mebibyte. */
const PART_BYTES = 1024 * 1024;

const f = schema.jobFiles;

/** One part of a job's file, written in the caller's transaction. */
export async function writePart(
  db: Executor,
  ref: { workspaceId: string; jobId: string },
  kind: JobFileKind,
  part: number,
  bytes: Buffer,
): Promise<void> {
  await db.insert(f).values({ workspaceId: ref.workspaceId, jobId: ref.jobId, kind, part, bytes });
}

/**
 * The bytes of a job's file from `offset` on, a part at a time (one part in memory, read by its
 * key): what an import parses, a download streams. Parts are numbered from 0 without gaps.
 */
export async function* readParts(
  db: Executor,
  ref: { workspaceId: string; jobId: string },
  kind: JobFileKind,
  offset = 0,
): AsyncGenerator<Buffer> {
  const first = Math.floor(offset / PART_BYTES);
  let skip = offset - first * PART_BYTES;
  for (let part = first; ; part++) {
    const [row] = await db
      .select({ bytes: f.bytes })
      .from(f)
      .where(
        and(eq(f.workspaceId, ref.workspaceId), eq(f.jobId, ref.jobId), eq(f.kind, kind), eq(f.part, part)),
      );
    if (!row) return;
    const bytes = skip > 0 ? row.bytes.subarray(skip) : row.bytes;
    skip = 0;
    if (bytes.length > 0) yield bytes;
  }
}

/**
 * Collects bytes into parts of PART_BYTES and writes each full one (`flush` writes the rest):
 * what an upload and an export write through, one part in memory.
 */
export function partWriter(
  db: Executor,
  ref: { workspaceId: string; jobId: string },
  kind: JobFileKind,
  firstPart = 0,
) {
  let chunks: Buffer[] = [];
  let size = 0;
  let part = firstPart;
  return {
    get nextPart() {
      return part;
    },
    async write(bytes: Buffer) {
      let rest = bytes;
      while (size + rest.length >= PART_BYTES) {
        const take = PART_BYTES - size;
        chunks.push(rest.subarray(0, take));
        rest = rest.subarray(take);
        await writePart(db, ref, kind, part++, Buffer.concat(chunks));
        chunks = [];
        size = 0;
      }
      if (rest.length > 0) {
        chunks.push(rest);
        size += rest.length;
      }
    },
    async flush() {
      if (size === 0) return;
      await writePart(db, ref, kind, part++, Buffer.concat(chunks));
      chunks = [];
      size = 0;
    },
  };
}
