import { isDeepStrictEqual } from 'node:util';
import type { Database, Executor } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { RecordOutput } from '../record-model/schemas.ts';
import { queryRecords } from '../records/query-records.ts';
import { restoreRecord } from '../records/restore-record.ts';
import { trashRecords, trashRecordsInput } from '../records/trash-records.ts';
import { updateRecords, updateRecordsInput } from '../records/update-records.ts';
import type { Actor } from '../shared/actor.ts';
import { asDatabase, type BatchOutcome, settleItem } from '../shared/batch.ts';
import { missing } from '../shared/missing.ts';
import { commitChunk, errorsOf, lastOf, type ResultLine } from './chunk-results.ts';
import { ndjsonLines } from './file-rows.ts';
import { partWriter, readParts } from './job-files.ts';
import { JOB_LEASE_SECONDS, type JobRow, takeChunk } from './job-row.ts';
import { listInput } from './list-input.ts';
import type { createUpdateJobInput } from './schemas.ts';

const j = schema.jobs;

const CHUNK = 500;
const BATCH = 100;
const PAGE = 200;

type UpdateParams = z.output<typeof createUpdateJobInput>;

/** A revert's result line: what it set back, and what it left because it changed since. */
type RevertLine = ResultLine & { setBack: string[]; left: string[] };

/**
 * Runs an update job: first the ids of the records it covers are fixed, in one transaction
 * (those that match the filter when it starts; for a revert, those the reverted job changed),
 * kept as its input file, a line each; then they are changed a chunk at a time, as the import
 * applies rows (runImport): each chunk through the batch writes of `PATCH /records/batch` or
 * `POST /records/batch/trash` in one transaction with its result lines and the checkpoint.
 */
export async function runUpdate(
  db: Database,
  started: JobRow,
  actor: Actor,
  until: number,
): Promise<'done' | 'stopped' | 'more'> {
  const job = started.file ? started : await fixRecords(db, started, actor);
  if (!job) return 'stopped';
  const ref = { workspaceId: job.workspaceId, jobId: job.id };
  const offset = job.checkpoint.offset ?? 0;
  let row = job.checkpoint.row;
  let part = job.checkpoint.part ?? 0;
  let chunk: { row: number; id: string; end: number }[] = [];
  const apply = async () => {
    const applied = await applyChunk(db, job, actor, chunk, part);
    chunk = [];
    part++;
    return applied;
  };
  for await (const line of ndjsonLines(readParts(db, ref, 'input', offset), offset)) {
    row++;
    chunk.push({ row, id: line.text.trim(), end: line.end });
    if (chunk.length < CHUNK) continue;
    if (!(await apply())) return 'stopped';
    if (Date.now() >= until) return 'more';
  }
  if (chunk.length > 0 && !(await apply())) return 'stopped';
  return 'done';
}

/** Writes the ids the job covers as its input file, in one transaction; null when it is no longer RUNNING. */
async function fixRecords(db: Database, job: JobRow, actor: Actor): Promise<JobRow | null> {
  return db.transaction(async (tx) => {
    if (!(await takeChunk(tx, job, 0))) return null;
    const [fresh] = await tx
      .select({ file: j.file })
      .from(j)
      .where(and(eq(j.workspaceId, job.workspaceId), eq(j.id, job.id)));
    if (fresh?.file) return null;
    const ref = { workspaceId: job.workspaceId, jobId: job.id };
    const parts = partWriter(tx, ref, 'input');
    let rows = 0;
    let bytes = 0;
    const keep = async (id: string) => {
      const line = Buffer.from(`${id}\n`);
      rows++;
      bytes += line.length;
      await parts.write(line);
    };
    if (job.revertOf) {
      for await (const line of ndjsonLines(readParts(tx, { ...ref, jobId: job.revertOf }, 'results'), 0)) {
        const result = JSON.parse(line.text) as ResultLine;
        if (result.status === 'updated' && result.recordId) await keep(result.recordId);
      }
    } else {
      const params = job.params as UpdateParams;
      let cursor: string | undefined;
      do {
        const page = await queryRecords(asDatabase(tx), actor, listInput(params, cursor, PAGE));
        for (const record of page.data) await keep(record.id);
        cursor = page.meta.nextCursor ?? undefined;
      } while (cursor);
    }
    await parts.flush();
    const [row] = await tx
      .update(j)
      .set({
        file: { mediaType: 'application/x-ndjson', bytes, rows, parts: parts.nextPart, bodyOffset: 0 },
        total: rows,
        checkpoint: { row: 0, offset: 0, part: 0 },
        leasedUntil: sql`now() + make_interval(secs => ${JOB_LEASE_SECONDS})`,
      })
      .where(and(eq(j.workspaceId, job.workspaceId), eq(j.id, job.id)))
      .returning();
    return row ?? null;
  });
}

async function applyChunk(
  db: Database,
  job: JobRow,
  actor: Actor,
  chunk: { row: number; id: string; end: number }[],
  part: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const taken = await takeChunk(tx, job, (chunk[0] ?? missing('the first id of a chunk')).row - 1);
    if (!taken) return false;
    const { startedAt } = taken;
    const lines = job.revertOf
      ? await revertChunk(tx, job, actor, chunk, startedAt)
      : await updateChunk(tx, job, actor, chunk, startedAt);
    await commitChunk(
      tx,
      job,
      part,
      lines,
      (chunk[0] ?? missing('the first id of a chunk')).row - 1,
      lastOf(chunk),
    );
    return true;
  });
}

type Outcome = BatchOutcome<RecordOutput>;

function lineOf(row: number, id: string, outcome: Outcome, startedAt: Date): ResultLine {
  if (!outcome.ok) return { row, status: 'refused', recordId: id, errors: errorsOf(outcome.error) };
  const changed = new Date(outcome.data.updatedAt).getTime() >= startedAt.getTime();
  return { row, status: changed ? 'updated' : 'unchanged', recordId: id, errors: [] };
}

/** `set` applied to each record (`PATCH /records/batch`), or each moved to Trash. */
async function updateChunk(
  tx: Executor,
  job: JobRow,
  actor: Actor,
  chunk: { row: number; id: string }[],
  startedAt: Date,
): Promise<ResultLine[]> {
  const params = job.params as UpdateParams;
  const lines: ResultLine[] = [];
  for (let start = 0; start < chunk.length; start += BATCH) {
    const slice = chunk.slice(start, start + BATCH);
    const outcomes = params.trash
      ? await trashRecords(asDatabase(tx), actor, trashRecordsInput.parse({ ids: slice.map((c) => c.id) }))
      : await updateRecords(
          asDatabase(tx),
          actor,
          updateRecordsInput.parse({ items: slice.map((c) => ({ ...params.set, id: c.id })) }),
        );
    outcomes.forEach((outcome, n) => {
      const item = slice[n] ?? missing('slice[n]');
      lines.push(lineOf(item.row, item.id, outcome, startedAt));
    });
  }
  return lines;
}

/**
 * Each record's fields set back to what the reverted job found, where they still hold what it
 * set (`to` of its history); the others are left. What it moved to Trash comes back.
 */
async function revertChunk(
  tx: Executor,
  job: JobRow,
  actor: Actor,
  chunk: { row: number; id: string }[],
  startedAt: Date,
): Promise<RevertLine[]> {
  const ids = chunk.map((c) => c.id);
  const history = await tx.execute<{
    subject_id: string;
    field: string;
    from_value: unknown;
    to_value: unknown;
  }>(sql`
    select subject_id, field, from_value, to_value from history
     where workspace_id = ${job.workspaceId} and subject = 'record' and subject_id = any(${sql.param(ids)}::text[])
       and actor_type = 'job' and actor_id = ${job.revertOf}
     order by subject_id, id`);
  const current = await tx.execute<{
    id: string;
    title: string;
    email: string | null;
    phone: string | null;
    owner_id: string | null;
    data: Record<string, unknown>;
    trashed: boolean;
  }>(sql`
    select id, title, email, phone, owner_id, data, trashed_at is not null as trashed from records
     where workspace_id = ${job.workspaceId} and id = any(${sql.param(ids)}::text[])`);
  const records = new Map(current.rows.map((r) => [r.id, r]));
  const lines: RevertLine[] = [];
  for (const { row, id } of chunk) {
    const record = records.get(id);
    if (!record) {
      lines.push({
        row,
        status: 'refused',
        recordId: id,
        errors: [{ path: 'id', message: 'the record is gone' }],
        setBack: [],
        left: [],
      });
      continue;
    }
    const changes = new Map<string, { from: unknown; to: unknown }>();
    for (const entry of history.rows.filter((h) => h.subject_id === id)) {
      const seen = changes.get(entry.field);
      changes.set(entry.field, { from: seen ? seen.from : entry.from_value, to: entry.to_value });
    }
    const currentOf = (field: string): unknown => {
      if (field.startsWith('data.')) return record.data[field.slice(5)] ?? null;
      if (field === 'ownerId') return record.owner_id;
      return (record as unknown as Record<string, unknown>)[field] ?? null;
    };
    const setBack: string[] = [];
    const left: string[] = [];
    const patch: Record<string, unknown> & { data: Record<string, unknown> } = { data: {} };
    for (const [field, { from, to }] of changes) {
      if (!isDeepStrictEqual(currentOf(field), to)) {
        left.push(field);
        continue;
      }
      setBack.push(field);
      if (field.startsWith('data.')) patch.data[field.slice(5)] = from;
      else patch[field] = from;
    }
    let outcome: Outcome | undefined;
    if (record.trashed && (job.params as { trash?: boolean }).trash) {
      outcome = await settleItem(async () => ({
        created: false,
        data: await restoreRecord(asDatabase(tx), actor, id),
      }));
      if (outcome.ok) setBack.push('trashedAt');
    } else if (setBack.length > 0) {
      if (Object.keys(patch.data).length === 0) delete (patch as { data?: unknown }).data;
      [outcome] = await updateRecords(
        asDatabase(tx),
        actor,
        updateRecordsInput.parse({ items: [{ ...patch, id }] }),
      );
    }
    lines.push(
      outcome
        ? { ...lineOf(row, id, outcome, startedAt), setBack, left }
        : { row, status: 'unchanged', recordId: id, errors: [], setBack, left },
    );
  }
  return lines;
}
