import type { Scope } from '@crm/constants';
import { type Executor, schema } from '@crm/db';
import type { JobActor } from '@crm/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { rightsOf } from '../api-keys/scopes.ts';
import type { Actor, Provenance } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { isId } from '../shared/ids.ts';
import type { JobOutput } from './schemas.ts';

const j = schema.jobs;
export type JobRow = typeof j.$inferSelect;

/**
 * How long a runner is taken to be alive after it started a job or committed a chunk
 * (`sweepJobs`). A chunk takes well under a second (500 rows); fixing an update's records can
 * take longer, and a second runner queued meanwhile waits for it on the job's row, then stops.
 */
export const JOB_LEASE_SECONDS = 20;

/** What a job keeps of its maker: enough to act as them when it runs, and no more than they could. */
export function jobActorOf(actor: Actor): JobActor {
  return {
    userId: actor.userId,
    apiKeyId: actor.apiKeyId,
    scopes: [...actor.scopes],
    folderIds: actor.folderIds === null ? null : [...actor.folderIds],
  };
}

/** Who a job's changes are recorded as (docs/api.md, "History and provenance"). */
export function jobProvenance(job: Pick<JobRow, 'id' | 'type' | 'requestId'>): Provenance {
  return {
    actor: { type: 'job', id: job.id, name: `${job.type.toLowerCase()} ${job.id}` },
    source: 'job',
    requestId: job.requestId,
  };
}

/**
 * The actor a job runs as: its maker as a member of the workspace today, with the scopes the
 * job was made with that their role still grants, or null when they are no longer a member.
 */
export async function actorOfJob(db: Executor, job: JobRow): Promise<Actor | null> {
  const found = await db.execute<{ id: string; name: string; role: Actor['role'] }>(sql`
    select u.id, u.name, m.role from memberships m join users u on u.id = m.user_id
     where m.workspace_id = ${job.workspaceId} and m.user_id = ${job.actor.userId}`);
  const member = found.rows[0];
  if (!member) return null;
  const rights = rightsOf(member.role);
  return {
    workspaceId: job.workspaceId,
    userId: member.id,
    userName: member.name,
    role: member.role,
    apiKeyId: job.actor.apiKeyId,
    scopes: new Set(job.actor.scopes.filter((scope): scope is Scope => rights.has(scope as Scope))),
    folderIds: job.actor.folderIds,
    provenance: jobProvenance(job),
  };
}

/** A job of the actor's workspace, or NOT_FOUND; `lock` takes its row for the transaction. */
export async function loadJob(db: Executor, actor: Actor, id: string, lock = false): Promise<JobRow> {
  if (!isId('job', id)) throw notFound('Job', id);
  const query = db
    .select()
    .from(j)
    .where(and(eq(j.workspaceId, actor.workspaceId), eq(j.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Job', id);
  return row;
}

/** A job as the API shows it (docs/jobs.md, "A job"). */
export function serializeJob(row: JobRow, makerName: string): JobOutput {
  const params = row.params as { folderId?: string; format?: 'csv' | 'ndjson' };
  const exported = row.type === 'EXPORT' && row.status === 'SUCCEEDED';
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    folderId: params.folderId ?? null,
    format: params.format ?? null,
    progress: {
      rowsRead: row.rowsRead,
      created: row.created,
      updated: row.updated,
      unchanged: row.unchanged,
      refused: row.refused,
      total: row.total,
    },
    error: row.error ?? null,
    actor: row.actor.apiKeyId
      ? { type: 'apiKey', id: row.actor.apiKeyId, name: makerName }
      : { type: 'user', id: row.actor.userId, name: makerName },
    uploadUrl: row.status === 'AWAITING_FILE' ? `/jobs/${row.id}/file` : null,
    fileUrl: exported ? `/jobs/${row.id}/file` : null,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt ? row.startedAt.toISOString() : null,
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

/** The name of a job's maker for `actor.name`: the key's name, or the user's. */
export async function makerNameOf(db: Executor, row: JobRow): Promise<string> {
  const found = row.actor.apiKeyId
    ? await db.execute<{ name: string }>(
        sql`select name from api_keys where workspace_id = ${row.workspaceId} and id = ${row.actor.apiKeyId}`,
      )
    : await db.execute<{ name: string }>(sql`select name from users where id = ${row.actor.userId}`);
  return found.rows[0]?.name ?? row.actor.apiKeyId ?? row.actor.userId;
}

/** `serializeJob` with its maker's name looked up. */
export async function jobOutputOf(db: Executor, row: JobRow): Promise<JobOutput> {
  return serializeJob(row, await makerNameOf(db, row));
}

/**
 * The start of a chunk's transaction whose commit is guarded by `commitChunk` (an import's):
 * the transaction's start (what it writes has it as `updatedAt`), or null when the job is no
 * longer RUNNING, so that a cancelled job's runner stops without writing a chunk first. The
 * job's row is read, not locked: a chunk after it may be written at the same time.
 */
export async function chunkStart(tx: Executor, job: Pick<JobRow, 'workspaceId' | 'id'>) {
  const [now] = await tx
    .select({ status: j.status, now: sql<string>`now()` })
    .from(j)
    .where(and(eq(j.workspaceId, job.workspaceId), eq(j.id, job.id)));
  if (now?.status !== 'RUNNING') return null;
  return { startedAt: new Date(now.now) };
}

/**
 * Takes a running job's row for a chunk's transaction: the chunk may be applied only while
 * the job is RUNNING and its checkpoint is where this runner left it (`row` rows done). Two
 * runners of one job (a worker thought dead and released while it was only slow, or the CLI
 * beside a worker) thus never apply a chunk twice: the one that finds the checkpoint moved
 * stops. Answers the transaction's start (what it writes has it as `updatedAt`), or null.
 */
export async function takeChunk(tx: Executor, job: Pick<JobRow, 'workspaceId' | 'id'>, row: number) {
  const [now] = await tx
    .select({ status: j.status, checkpoint: j.checkpoint, now: sql<string>`now()` })
    .from(j)
    .where(and(eq(j.workspaceId, job.workspaceId), eq(j.id, job.id)))
    .for('update');
  if (now?.status !== 'RUNNING' || now.checkpoint.row !== row) return null;
  return { startedAt: new Date(now.now) };
}
