import type { Database } from '@crm/db';
import { schema } from '@crm/db';
import { and, eq, sql } from 'drizzle-orm';
import { DomainError, isRefusal } from '../shared/errors.ts';
import { appendEvent } from '../shared/events.ts';
import { missing } from '../shared/missing.ts';
import { actorOfJob, JOB_LEASE_SECONDS, type JobRow, jobOutputOf, jobProvenance } from './job-row.ts';
import { queueJob } from './queue-job.ts';
import { runExport } from './run-export.ts';
import { runImport } from './run-import.ts';
import { runUpdate } from './run-update.ts';

const j = schema.jobs;

/**
 * How long one queue job runs a job before it queues the next and ends: so that a worker that
 * dies holds the job for no longer than the queue's check of stuck workers waits (two minutes),
 * and jobs of several workspaces take turns.
 */
const RUN_SECONDS = 30;

/**
 * Jobs of one workspace that run at once; another waits, QUEUED, and is tried again every
 * `WAIT_SECONDS`. Each job applies one chunk at a time on one database connection, so a
 * workspace holds at most this many connections and this much of the database's time, and
 * its own requests, and other workspaces' jobs, keep the rest (docs/jobs.md, "How jobs share
 * the service"). Two lets an export run beside a long import.
 */
export const RUNNING_JOBS_PER_WORKSPACE = 2;
const WAIT_SECONDS = 5;

/**
 * Queues again every RUNNING job whose runner's lease ran out (its process killed, its
 * database connection cut): a worker calls it every few seconds, so a job goes on from its
 * checkpoint within seconds of losing its runner, without waiting for the queue to release
 * the dead worker's lock (minutes). The lease is moved on in the same transaction, so two
 * workers sweeping at once queue a job once. Two statements, not one: on a sharded database
 * the jobs are on the workers and the queue on the coordinator (docs/scaling.md). Answers the
 * jobs queued.
 */
export async function sweepJobs(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const stale = await tx
      .update(j)
      .set({ leasedUntil: sql`now() + make_interval(secs => ${JOB_LEASE_SECONDS})` })
      .where(and(eq(j.status, 'RUNNING'), sql`${j.leasedUntil} < now()`))
      .returning({ workspaceId: j.workspaceId, id: j.id });
    for (const job of stale) await queueJob(tx, job);
    return stale.length;
  });
}

/**
 * Chunks an import whose rows do not depend on one another writes at once unless the worker
 * says otherwise (IMPORT_CHUNKS_IN_FLIGHT): two, one on each of two connections, which
 * imports a third faster than one and keeps reads within their target on two cores
 * (docs/performance.md, "Jobs", the log of 2026-11-28 18:50).
 */
export const IMPORT_CHUNKS_IN_FLIGHT = 2;

/** How a worker runs jobs. */
export interface RunJobOptions {
  /**
   * Chunks an import whose rows do not depend on one another writes at once, 1 or 2
   * (`runImport`): the worker's IMPORT_CHUNKS_IN_FLIGHT.
   */
  importChunksInFlight?: number;
}

/**
 * The `run_job` queue job: takes a QUEUED job to RUNNING and runs it from its checkpoint, or
 * goes on with a RUNNING one whose process was cut off. It ends SUCCEEDED (`job.completed`), or
 * FAILED (`job.failed`) when what it was asked cannot be done (its maker gone, its folder
 * deleted); a failure of the service itself (the database away) is thrown, and the queue runs
 * the job again later, from its checkpoint. A job no longer QUEUED or RUNNING is left alone.
 */
export async function runJob(
  db: Database,
  ref: { workspaceId: string; id: string },
  options: RunJobOptions = {},
): Promise<void> {
  const started = await startJob(db, ref);
  if (!started || started === 'wait') return;
  const actor = await actorOfJob(db, started);
  if (!actor) {
    await finishJob(db, started, {
      code: 'FORBIDDEN',
      message: 'The member who made the job is no longer in the workspace',
    });
    return;
  }
  try {
    const until = Date.now() + RUN_SECONDS * 1000;
    const outcome =
      started.type === 'IMPORT'
        ? await runImport(db, started, actor, until, options.importChunksInFlight ?? IMPORT_CHUNKS_IN_FLIGHT)
        : started.type === 'EXPORT'
          ? await runExport(db, started, actor, until)
          : started.type === 'UPDATE'
            ? await runUpdate(db, started, actor, until)
            : unknownType(started.type);
    if (outcome === 'done') await finishJob(db, started, null);
    else if (outcome === 'more') await queueJob(db, started);
  } catch (error) {
    if (error instanceof DomainError && isRefusal(error.code)) {
      await finishJob(db, started, { code: error.code, message: error.message });
      return;
    }
    throw error;
  }
}

/**
 * Takes the job to RUNNING, with a fresh lease, and answers it; undefined when it is no longer
 * QUEUED or RUNNING. A QUEUED job starts only while fewer than RUNNING_JOBS_PER_WORKSPACE of
 * its workspace's jobs run (their lease live); else it is queued again for WAIT_SECONDS later
 * (`wait`). The workspace's jobs are counted under a lock of the workspace's own, so two
 * workers starting two jobs at once count each other. A RUNNING job (going on after its 30
 * seconds, or after its runner was lost) goes on whatever the count.
 */
async function startJob(
  db: Database,
  ref: { workspaceId: string; id: string },
): Promise<JobRow | undefined | 'wait'> {
  return db.transaction(async (tx) => {
    // The transaction's start as a value: a sharded database takes no now() inside coalesce.
    const locked = await tx.execute<{ now: string }>(
      sql`select pg_advisory_xact_lock(hashtextextended(${`jobs:${ref.workspaceId}`}, 0)), now()::text as now`,
    );
    const now = (locked.rows[0] ?? missing('the row of a select')).now;
    const [started] = await tx
      .update(j)
      .set({
        status: 'RUNNING',
        startedAt: sql`coalesce(${j.startedAt}, ${now}::timestamptz)`,
        leasedUntil: sql`now() + make_interval(secs => ${JOB_LEASE_SECONDS})`,
      })
      .where(
        and(
          eq(j.workspaceId, ref.workspaceId),
          eq(j.id, ref.id),
          sql`(${j.status} = 'RUNNING' or (${j.status} = 'QUEUED' and (
            select count(*) from jobs o
             where o.workspace_id = ${ref.workspaceId} and o.status = 'RUNNING' and o.leased_until > now()
          ) < ${RUNNING_JOBS_PER_WORKSPACE}))`,
        ),
      )
      .returning();
    if (started) return started;
    const [queued] = await tx
      .select({ id: j.id })
      .from(j)
      .where(and(eq(j.workspaceId, ref.workspaceId), eq(j.id, ref.id), eq(j.status, 'QUEUED')));
    if (!queued) return undefined;
    await queueJob(tx, ref, WAIT_SECONDS);
    return 'wait';
  });
}

/** Ends a RUNNING job SUCCEEDED (no error) or FAILED, with its event, in one transaction. */
async function finishJob(
  db: Database,
  job: JobRow,
  error: { code: string; message: string } | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [ended] = await tx
      .update(j)
      .set({
        status: error ? 'FAILED' : 'SUCCEEDED',
        error,
        finishedAt: sql`now()`,
        ...(job.type === 'EXPORT' && !error ? { expiresAt: sql`now() + interval '24 hours'` } : {}),
      })
      .where(and(eq(j.workspaceId, job.workspaceId), eq(j.id, job.id), eq(j.status, 'RUNNING')))
      .returning();
    if (!ended) return;
    const provenance = jobProvenance(ended);
    await appendEvent(
      tx,
      {
        workspaceId: ended.workspaceId,
        userId: ended.actor.userId,
        userName: '',
        role: 'MEMBER',
        apiKeyId: ended.actor.apiKeyId,
        scopes: new Set(),
        folderIds: ended.actor.folderIds,
        provenance,
      },
      error ? 'job.failed' : 'job.completed',
      { recordId: null, folderId: null, record: null, jobId: ended.id, job: await jobOutputOf(tx, ended) },
    );
  });
}

function unknownType(type: string): never {
  throw new DomainError('VALIDATION_FAILED', `A ${type} job cannot run in this version of the service`);
}
