import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { bytea, createdAt, instant, workspaceId } from './columns.ts';

export const jobTypes = ['IMPORT', 'EXPORT', 'UPDATE'] as const;
export type JobType = (typeof jobTypes)[number];

export const jobStatuses = [
  'AWAITING_FILE',
  'QUEUED',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
] as const;
export type JobStatus = (typeof jobStatuses)[number];

/** Who a job acts as: its maker's credential as it was when the job was made. */
export interface JobActor {
  userId: string;
  apiKeyId: string | null;
  scopes: string[];
  folderIds: string[] | null;
}

/** An uploaded file, as the upload read it (docs/jobs.md, "Files"). */
export interface JobFileInfo {
  mediaType: string;
  bytes: number;
  rows: number;
  parts: number;
  /** CSV: the header's columns and its delimiter; the rows start at `bodyOffset`. */
  header?: string[];
  delimiter?: string;
  bodyOffset: number;
}

/**
 * Where a running job goes on from, written in the transaction that applied what came before
 * it (docs/jobs.md, "Exactly once"): the rows done, and where the next one is.
 */
export interface JobCheckpoint {
  row: number;
  /** The next part of the results (an import) or of the file (an export). */
  part?: number;
  /** An import's next row's first byte in its file. */
  offset?: number;
  /** An export's list cursor after its last record written (`meta.nextCursor`). */
  cursor?: string;
}

/**
 * A job the service runs itself (docs/jobs.md): an import of a file, an export of a folder's
 * records, or a change to every record a filter matches. Its progress and checkpoint are
 * written with each chunk it applies, so a job cut off anywhere goes on from where it was.
 */
export const jobs = pgTable(
  'jobs',
  {
    workspaceId: workspaceId(),
    id: text().notNull(),
    type: text({ enum: jobTypes }).notNull(),
    status: text({ enum: jobStatuses }).notNull(),
    /** The request that made it, as validated (folder, mapping, filter, set …). */
    params: jsonb().$type<Record<string, unknown>>().notNull(),
    actor: jsonb().$type<JobActor>().notNull(),
    /** The request id of the call that made it. */
    requestId: text(),
    file: jsonb().$type<JobFileInfo>(),
    checkpoint: jsonb().$type<JobCheckpoint>().notNull().default(sql`'{"row":0}'::jsonb`),
    rowsRead: integer().notNull().default(0),
    created: integer().notNull().default(0),
    updated: integer().notNull().default(0),
    unchanged: integer().notNull().default(0),
    refused: integer().notNull().default(0),
    total: integer(),
    /** The job this one reverts (an UPDATE's revert). */
    revertOf: text(),
    notify: boolean().notNull().default(true),
    error: jsonb().$type<{ code: string; message: string }>(),
    createdAt: createdAt(),
    startedAt: instant(),
    finishedAt: instant(),
    /** When an export's file stops being served (410 after). */
    expiresAt: instant(),
    /**
     * Until when the runner of a RUNNING job is taken to be alive: moved on by every chunk it
     * commits. Past it, a worker queues the job again (`sweepJobs`), and it goes on from its
     * checkpoint.
     */
    leasedUntil: instant(),
  },
  (t) => [
    primaryKey({ name: 'jobs_pkey', columns: [t.workspaceId, t.id] }),
    index('jobs_workspace_created_idx').on(
      t.workspaceId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The running jobs whose runner's lease ran out (`sweepJobs`, every few seconds).
    index('jobs_running_idx').on(t.leasedUntil).where(sql`${t.status} = 'RUNNING'`),
  ],
);

export const jobFileKinds = ['input', 'output', 'results'] as const;
export type JobFileKind = (typeof jobFileKinds)[number];

/**
 * A job's files, in parts of up to a mebibyte: the uploaded file (`input`), an export's file
 * (`output`) and the results, one NDJSON line per row (`results`, a part per chunk applied).
 * Kept in PostgreSQL, which every process of the worker pool reaches (docs/operations.md,
 * "Jobs' files"); removed with the job.
 */
export const jobFiles = pgTable(
  'job_files',
  {
    workspaceId: workspaceId(),
    jobId: text().notNull(),
    kind: text({ enum: jobFileKinds }).notNull(),
    part: integer().notNull(),
    bytes: bytea().notNull(),
  },
  (t) => [
    primaryKey({ name: 'job_files_pkey', columns: [t.workspaceId, t.jobId, t.kind, t.part] }),
    foreignKey({
      name: 'job_files_job_fk',
      columns: [t.workspaceId, t.jobId],
      foreignColumns: [jobs.workspaceId, jobs.id],
    }).onDelete('cascade'),
  ],
);
