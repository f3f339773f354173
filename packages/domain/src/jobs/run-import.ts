import type { Database, Executor } from '@crm/db';
import { sql } from 'drizzle-orm';
import { loadFolder } from '../folders/load-folder.ts';
import type { RecordOutput } from '../record-model/schemas.ts';
import { createRecords, createRecordsInput } from '../records/create-records.ts';
import { updateRecords, updateRecordsInput } from '../records/update-records.ts';
import type { Actor } from '../shared/actor.ts';
import { asDatabase, type BatchOutcome } from '../shared/batch.ts';
import { missing } from '../shared/missing.ts';
import { keepStatistics } from '../shared/record-statistics.ts';
import { ChunkNotTaken, commitChunk, errorsOf, lastOf, type ResultLine } from './chunk-results.ts';
import { type FileRow, fileRows } from './file-rows.ts';
import { type ImportParams, itemOfRow, type RecordItem, upsertKeyOf } from './import-items.ts';
import { readParts } from './job-files.ts';
import { chunkStart, type JobRow } from './job-row.ts';

/** Rows applied in one transaction, with their results and the job's checkpoint. */
export const IMPORT_CHUNK_ROWS = 500;
const BATCH = 100;

/**
 * Runs an import from its checkpoint to the end of its file: `IMPORT_CHUNK_ROWS` rows at a
 * time, each chunk in one transaction that applies its rows through the batch writes of
 * `POST /records/batch` and `PATCH /records/batch` (their checks, events, history and links),
 * writes their result lines and moves the checkpoint past them. Cut off anywhere, the job goes
 * on from the last chunk that committed: every row applied once (docs/jobs.md, "Exactly once").
 * Stops early, keeping what it wrote, when the job is no longer RUNNING (cancelled), and
 * after the chunk that ends past `until` (`more`: the caller queues the job again).
 *
 * An import whose rows do not depend on one another (no `upsertBy`, relations by id only)
 * may have `chunksInFlight` chunks in flight, each on a connection of its own: the next one
 * is written while the one before it commits, and commits only after it (`applyChunk`'s
 * `before`), so the checkpoint moves in file order as with one at a time. Otherwise a row may
 * need what an earlier row wrote, and chunks go one at a time.
 */
export async function runImport(
  db: Database,
  job: JobRow,
  actor: Actor,
  until: number,
  chunksInFlight: number,
): Promise<'done' | 'stopped' | 'more'> {
  const params = job.params as unknown as ImportParams;
  // `notify: false`: the rows' events are kept but delivered to no webhook and start no workflow.
  const writer: Actor = params.notify === false ? { ...actor, quiet: true } : actor;
  const file = job.file ?? missing('the file of a queued import');
  const ref = { workspaceId: job.workspaceId, jobId: job.id };
  const from = { row: job.checkpoint.row, offset: job.checkpoint.offset ?? file.bodyOffset };
  const rows = fileRows(file, readParts(db, ref, 'input', from.offset), from);
  const inFlight = orderFree(params) ? Math.max(1, chunksInFlight) : 1;
  let chunk: FileRow[] = [];
  let part = job.checkpoint.part ?? 0;
  let before: Promise<boolean> = Promise.resolve(true);
  const pending: { applied: Promise<boolean>; lastRow: number }[] = [];
  const statistics = keepStatistics(db, job.workspaceId, from.row);
  const apply = () => {
    before = applyChunk(db, job, writer, params, chunk, part, before);
    // Its failure is seen where it is awaited (settle, the next chunk), maybe after it happened.
    before.catch(() => {});
    pending.push({ applied: before, lastRow: lastOf(chunk).row });
    chunk = [];
    part++;
  };
  /**
   * Waits for the chunks in flight beyond `keep`, oldest first; false when one was not
   * applied. Then, a dry run aside, the planner's statistics are brought abreast of the rows
   * applied (keepStatistics).
   */
  const settle = async (keep: number) => {
    let applied = 0;
    while (pending.length > keep) {
      const next = pending.shift() ?? missing('a chunk in flight');
      if (!(await next.applied)) return false;
      applied = next.lastRow;
    }
    if (applied > 0 && !params.dryRun) await statistics(applied);
    return true;
  };
  try {
    for await (const row of rows) {
      chunk.push(row);
      if (chunk.length < IMPORT_CHUNK_ROWS) continue;
      apply();
      if (!(await settle(inFlight - 1))) return 'stopped';
      // The queue job ends here and queues the next: a worker that dies holds a job briefly.
      if (Date.now() >= until) return (await settle(0)) ? 'more' : 'stopped';
    }
    if (chunk.length > 0) apply();
    return (await settle(0)) ? 'done' : 'stopped';
  } finally {
    // Whatever ended the run (a failure included), no chunk is left running unawaited.
    await Promise.allSettled(pending.map((p) => p.applied));
  }
}

/** Whether an import's rows can be written in any order: none finds a record by what another row wrote. */
function orderFree(params: ImportParams): boolean {
  return !params.upsertBy && Object.values(params.relations ?? {}).every((by) => by === 'id');
}

class DryRun extends Error {}

/**
 * Applies one chunk (see runImport) in a transaction that commits only once `before` (the
 * chunk before it) was applied; false when it was not, or when the job is no longer RUNNING
 * or another runner moved it on (`commitChunk`): then nothing of this chunk is kept.
 */
async function applyChunk(
  db: Database,
  job: JobRow,
  actor: Actor,
  params: ImportParams,
  chunk: FileRow[],
  part: number,
  before: Promise<boolean>,
): Promise<boolean> {
  const from = (chunk[0] ?? missing('the first row of a chunk')).row - 1;
  return db
    .transaction(async (tx) => {
      const taken = await chunkStart(tx, job);
      if (!taken) throw new ChunkNotTaken();
      return writeChunk(tx, job, actor, params, chunk, part, from, taken.startedAt, before);
    })
    .catch((error: unknown) => {
      if (error instanceof ChunkNotTaken) return false;
      throw error;
    });
}

/** The rows of a chunk written, then (the chunk before it applied) committed with its results. */
async function writeChunk(
  tx: Executor,
  job: JobRow,
  actor: Actor,
  params: ImportParams,
  chunk: FileRow[],
  part: number,
  from: number,
  startedAt: Date,
  before: Promise<boolean>,
): Promise<true> {
  // What this transaction writes has its start as `updatedAt` (`startedAt`): an update older
  // than that changed nothing.
  const lines = new Array<ResultLine>(chunk.length);
  const folder = await loadFolder(asDatabase(tx), actor, params.folderId);
  const items: { at: number; item: RecordItem }[] = [];
  chunk.forEach((row, at) => {
    if (row.values === null) {
      lines[at] = {
        row: row.row,
        status: 'refused',
        recordId: null,
        errors: [{ path: '', message: row.problem ?? 'unreadable' }],
      };
    } else {
      items.push({ at, item: itemOfRow(row.values, params, folder.fields) });
    }
  });
  const write = async (sp: Executor) => {
    const outcomes = await writeItems(
      asDatabase(sp),
      actor,
      params,
      items.map((i) => i.item),
    );
    outcomes.forEach((outcome, n) => {
      const { at } = items[n] ?? missing('the item of each outcome');
      const row = (chunk[at] ?? missing('the row of each item')).row;
      lines[at] = lineOf(row, outcome, startedAt);
    });
  };
  if (params.dryRun) {
    // Every row checked and written as it would be, then all of it rolled back.
    await tx
      .transaction(async (sp) => {
        await write(sp);
        throw new DryRun();
      })
      .catch((error: unknown) => {
        if (!(error instanceof DryRun)) throw error;
      });
  } else {
    await write(tx);
  }
  // The chunk before this one first: if it was not applied, neither is this one.
  if (!(await before)) throw new ChunkNotTaken();
  await commitChunk(tx, job, part, lines, from, lastOf(chunk));
  return true;
}

type Outcome = BatchOutcome<RecordOutput>;

/**
 * The items written as `POST /records/batch` writes them, a hundred at a time; with `upsertBy`
 * a title or a custom field, each item whose value a live record of the folder holds is that
 * record's `PATCH /records/batch` item instead, and an item whose value an earlier item of the
 * chunk has waits for it (so that of two rows with one new value, the first creates and the
 * second updates).
 */
async function writeItems(
  db: Database,
  actor: Actor,
  params: ImportParams,
  items: RecordItem[],
): Promise<Outcome[]> {
  const outcomes = new Array<Outcome>(items.length);
  const upsertBy = params.upsertBy;
  if (!upsertBy || upsertBy === 'email') {
    // By email: the batch's own upsert for the rows with an email; a row without one is
    // created, as a row without its value is with any other upsertBy.
    const all = items.map((item, at) => ({ at, item }));
    const parts = upsertBy
      ? [
          { upsert: true, part: all.filter((e) => upsertKeyOf(e.item, 'email') !== null) },
          { upsert: false, part: all.filter((e) => upsertKeyOf(e.item, 'email') === null) },
        ]
      : [{ upsert: false, part: all }];
    for (const { upsert, part } of parts) {
      for (let start = 0; start < part.length; start += BATCH) {
        const slice = part.slice(start, start + BATCH);
        const input = createRecordsInput.parse({
          items: slice.map((e) => e.item),
          ...(upsert ? { upsert: 'email' } : {}),
        });
        const done = await createRecords(db, actor, input);
        done.forEach((outcome, n) => {
          outcomes[(slice[n] ?? missing('slice[n]')).at] = outcome;
        });
      }
    }
    return outcomes;
  }
  let pending = items.map((item, at) => ({ at, item }));
  while (pending.length > 0) {
    const seen = new Set<string>();
    const wave: typeof pending = [];
    const later: typeof pending = [];
    for (const entry of pending) {
      const key = upsertKeyOf(entry.item, upsertBy);
      if (key !== null && seen.has(key)) later.push(entry);
      else {
        if (key !== null) seen.add(key);
        wave.push(entry);
      }
    }
    const held = await recordsByKey(db, actor, params.folderId, upsertBy, [...seen]);
    const creates = wave.filter((e) => !held.has(upsertKeyOf(e.item, upsertBy) ?? ''));
    const updates = wave.filter((e) => held.has(upsertKeyOf(e.item, upsertBy) ?? ''));
    for (let start = 0; start < creates.length; start += BATCH) {
      const slice = creates.slice(start, start + BATCH);
      const done = await createRecords(
        db,
        actor,
        createRecordsInput.parse({ items: slice.map((e) => e.item) }),
      );
      done.forEach((outcome, n) => {
        outcomes[(slice[n] ?? missing('slice[n]')).at] = outcome;
      });
    }
    for (let start = 0; start < updates.length; start += BATCH) {
      const slice = updates.slice(start, start + BATCH);
      const input = updateRecordsInput.parse({
        items: slice.map(({ item }) => {
          const { folderId: _folder, ...values } = item;
          return { ...values, id: held.get(upsertKeyOf(item, upsertBy) ?? '') };
        }),
      });
      const done = await updateRecords(db, actor, input);
      done.forEach((outcome, n) => {
        outcomes[(slice[n] ?? missing('slice[n]')).at] = outcome;
      });
    }
    pending = later;
  }
  return outcomes;
}

/** Of `keys`, those a live record of the folder holds as `upsertBy`, each with the oldest such record's id. */
async function recordsByKey(
  db: Executor,
  actor: Actor,
  folderId: string,
  upsertBy: string,
  keys: string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const value =
    upsertBy === 'title'
      ? sql`r.title`
      : upsertBy === 'email'
        ? sql`lower(r.email)`
        : sql`(r.data ->> ${upsertBy.slice(5)})`;
  const found = await db.execute<{ key: string; id: string }>(sql`
    select distinct on (k.key) k.key, r.id
      from unnest(${sql.param(keys)}::text[]) as k(key)
      join records r on r.workspace_id = ${actor.workspaceId} and r.folder_id = ${folderId}
       and r.trashed_at is null and ${value} = k.key
     order by k.key, r.created_at, r.id`);
  return new Map(found.rows.map((row) => [row.key, row.id]));
}

/** A row's result line from its batch outcome; an update that changed nothing is `unchanged`. */
function lineOf(row: number, outcome: Outcome, startedAt: Date): ResultLine {
  if (outcome.ok) {
    const record = outcome.data;
    const status = outcome.created
      ? 'created'
      : new Date(record.updatedAt).getTime() < startedAt.getTime()
        ? 'unchanged'
        : 'updated';
    return { row, status, recordId: record.id, errors: [] };
  }
  return { row, status: 'refused', recordId: null, errors: errorsOf(outcome.error) };
}
