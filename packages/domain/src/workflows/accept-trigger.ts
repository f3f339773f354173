import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Database, isSharded, namedStatement, runNamed } from '@crm/db';
import { sql } from 'drizzle-orm';
import { IDEMPOTENCY_TTL_HOURS } from '../idempotency/idempotency-keys.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';
import { missing } from '../shared/missing.ts';
import { openSecret } from '../shared/secret-box.ts';

/** What the trigger endpoint needs of a workflow. */
export interface TriggerWorkflow {
  id: string;
  workspaceId: string;
  /** The secrets as stored (sealed); `verifyTriggerSignature` opens them when a call needs it. */
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  rateLimitPerMinute: number;
}

/** Unknown, disabled, of another trigger type, malformed: one answer, so a URL reveals nothing. */
const noWorkflow = () => new DomainError('NOT_FOUND', 'No enabled workflow at this URL');

const FIND_TRIGGER_WORKFLOW = namedStatement(
  'find_trigger_workflow',
  `select id, workspace_id, secret, previous_secret, previous_secret_expires_at, rate_limit_per_minute
     from workflows where id = $1 and enabled and trigger_type = 'INCOMING_WEBHOOK'`,
);

type TriggerRow = {
  id: string;
  workspace_id: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  rate_limit_per_minute: number;
};

/** The enabled INCOMING_WEBHOOK workflow behind a trigger URL, or the one 404. */
export async function findTriggerWorkflow(db: Database, id: string): Promise<TriggerWorkflow> {
  if (!isId('workflow', id)) throw noWorkflow();
  // A named statement: parsed and planned once per connection, it runs on every call.
  const [row] = await runNamed<TriggerRow>(db, FIND_TRIGGER_WORKFLOW, [id], { instants: 'date' });
  if (!row) throw noWorkflow();
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    rateLimitPerMinute: row.rate_limit_per_minute,
  };
}

function signatureOf(secret: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/**
 * A workflow with a secret accepts only calls signed like outgoing deliveries:
 * `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`. After a
 * rotation the previous secret is accepted for 24 hours. Compared in constant time.
 */
export function verifyTriggerSignature(
  workflow: TriggerWorkflow,
  body: Buffer,
  header: string | undefined,
  now: Date = new Date(),
): void {
  if (workflow.secret === null) return;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  if (!match) {
    throw new DomainError(
      'UNAUTHORIZED',
      header
        ? 'X-Service-Signature must be sha256=<64 hex digits>'
        : 'This workflow requires X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>',
    );
  }
  const given = Buffer.from((match[1] ?? missing('match[1]')).toLowerCase(), 'hex');
  const secrets = [openSecret(workflow.secret)];
  if (workflow.previousSecret && workflow.previousSecretExpiresAt && workflow.previousSecretExpiresAt > now) {
    secrets.push(openSecret(workflow.previousSecret));
  }
  if (!secrets.some((secret) => timingSafeEqual(signatureOf(secret, body), given))) {
    throw new DomainError('UNAUTHORIZED', 'X-Service-Signature does not match the body');
  }
}

/** One accepted call, to be queued with others in one transaction. */
export interface TriggeredRun {
  workflow: TriggerWorkflow;
  body: Record<string, unknown>;
  /** The body's `recordId`, as `triggerRecordId` accepted it. */
  recordId: string | null;
  /** The call's `Idempotency-Key` and request fingerprint, when it sent one. */
  idempotency?: { key: string; fingerprint: string } | undefined;
}

/**
 * What became of each call of a batch: its run id, the 404 that refuses it, or `keyTaken`:
 * its Idempotency-Key already holds an answer (an earlier call's, or another call's of the
 * same batch), which the caller replays or refuses (`findKeptAnswer`).
 */
export type QueuedRun = { runId: string } | { error: DomainError } | { keyTaken: true };

/** The answer of an accepted call, as sent and as kept for replays. */
export function acceptedAnswer(workflowId: string, runId: string) {
  return { ok: true as const, workflowId, runId };
}

/**
 * The `recordId` of a call: a string (400 otherwise) naming a record; a malformed id cannot
 * name one (404). Checked before the call joins a batch.
 */
export function triggerRecordId(body: Record<string, unknown>): string | null {
  const recordId = body.recordId;
  if (recordId === undefined || recordId === null) return null;
  if (typeof recordId !== 'string') throw invalid('recordId', 'must be a string (a record id)');
  if (!isId('record', recordId)) throw recordNotFound(recordId);
  return recordId;
}

const QUEUE_TRIGGERED_RUNS = namedStatement(
  'queue_triggered_runs',
  `
      with input as (
        select * from json_to_recordset($1::json)
          as i(ord int, run_id text, workspace_id text, workflow_id text, body jsonb, record_id text,
               idem_key text, fingerprint text, answer text)
      ), eligible as (
        select i.*, w.actions
          from input i
          join workflows w on w.workspace_id = i.workspace_id and w.id = i.workflow_id
         where i.record_id is null
            or (select r.trashed_at is null from records r
                 where r.workspace_id = w.workspace_id and r.id = i.record_id)
      ), keyed as (
        insert into idempotency_keys (workspace_id, key, fingerprint, state, status, headers, body, created_at, updated_at)
        select distinct on (e.workspace_id, e.idem_key) e.workspace_id, e.idem_key, e.fingerprint, 'done', null,
               null, e.answer, now(), now()
          from eligible e where e.idem_key is not null
         order by e.workspace_id, e.idem_key, e.ord
        on conflict (workspace_id, key) do update
          set fingerprint = excluded.fingerprint, state = 'done', status = excluded.status,
              headers = excluded.headers, body = excluded.body, created_at = now(), updated_at = now()
          where idempotency_keys.state <> 'done'
             or idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
        returning body
      ), run as (
        insert into workflow_runs (workspace_id, id, workflow_id, trigger, input, record_id, context_record_id, actions)
        select e.workspace_id, e.run_id, e.workflow_id, 'INCOMING_WEBHOOK', e.body, e.record_id, e.record_id, e.actions
          from eligible e
         where e.idem_key is null or e.answer in (select body from keyed)
         order by e.ord
        returning workspace_id, id
      ), jobs as (
        select graphile_worker.add_jobs(array(
          select row('run_workflow'::text, json_build_object('runId', run.id, 'workspaceId', run.workspace_id), null::text, null::timestamptz,
                     25::smallint, null::text, null::smallint, null::text[])::graphile_worker.job_spec
            from run)) as job
      )
      select run.id, null as taken from run where (select count(*) from jobs) >= 0
      union all
      select null, e.run_id from eligible e
       where e.idem_key is not null and e.answer not in (select body from keyed)`,
);

/**
 * Queues runs for incoming calls, durably, in one statement (one transaction): the runs and
 * their `run_workflow` jobs are committed together, and `graphile_worker.add_jobs` is called
 * once for the lot. Adding a job NOTIFYs the workers, and PostgreSQL commits notifying
 * transactions one at a time, each waiting for its own disk flush: queueing calls one
 * transaction each capped acceptance at a few hundred a second, batching lifts it. A
 * `recordId` must be a live record of the workflow's workspace (checked in the same
 * statement); a call whose record is missing, or whose workflow was deleted meanwhile, gets
 * its 404 and queues nothing.
 *
 * A call with an Idempotency-Key stores its answer (the JSON of `acceptedAnswer`, with no
 * HTTP status or headers: the trigger URL answers 200 to an accepted call, first or replayed)
 * under the key in the same statement, and
 * queues its run only if that key was free (or had expired): the run and the kept answer
 * commit together, so a crash leaves neither or both, and of concurrent calls with one key
 * (in this batch, or in another process's) exactly one queues a run.
 */
export async function queueTriggeredRuns(db: Database, calls: TriggeredRun[]): Promise<QueuedRun[]> {
  const items = calls.map((call, ord): QueueItem => {
    const runId = newId('run');
    return {
      ord,
      run_id: runId,
      workspace_id: call.workflow.workspaceId,
      workflow_id: call.workflow.id,
      body: call.body,
      record_id: call.recordId,
      idem_key: call.idempotency?.key ?? null,
      fingerprint: call.idempotency?.fingerprint ?? null,
      answer: JSON.stringify(acceptedAnswer(call.workflow.id, runId)),
    };
  });
  if (await isSharded(db)) return answersOf(items, await queueShardedRuns(db, items));
  const rows = await runNamed<{ id: string | null; taken: string | null }>(db, QUEUE_TRIGGERED_RUNS, [
    JSON.stringify(items),
  ]);
  return answersOf(items, rows);
}

type QueueItem = {
  ord: number;
  run_id: string;
  workspace_id: string;
  workflow_id: string;
  body: Record<string, unknown>;
  record_id: string | null;
  idem_key: string | null;
  fingerprint: string | null;
  answer: string;
};

/** Each call's answer from the rows of the queueing statements: a queued run, a taken key, or its 404. */
function answersOf(items: QueueItem[], rows: { id: string | null; taken: string | null }[]): QueuedRun[] {
  const queued = new Set<string>();
  const taken = new Set<string>();
  for (const row of rows) {
    if (row.id) queued.add(row.id);
    if (row.taken) taken.add(row.taken);
  }
  return items.map((item) => {
    if (queued.has(item.run_id)) return { runId: item.run_id };
    if (taken.has(item.run_id)) return { keyTaken: true };
    return { error: item.record_id !== null ? recordNotFound(item.record_id) : noWorkflow() };
  });
}

/**
 * The same work on a sharded database, in one transaction: per workspace, a statement naming
 * it (routed to the node that holds it) checks the calls, keeps the idempotent answers and
 * writes the runs; then one statement on the coordinator queues the jobs of every run
 * written. Instants are passed in: the upsert may use no `now()` (docs/scaling.md).
 */
async function queueShardedRuns(db: Database, items: QueueItem[]) {
  const byWorkspace = new Map<string, QueueItem[]>();
  for (const item of items)
    byWorkspace.set(item.workspace_id, [...(byWorkspace.get(item.workspace_id) ?? []), item]);
  const now = new Date();
  const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3600_000);
  return db.transaction(async (tx) => {
    const rows: { id: string | null; taken: string | null }[] = [];
    for (const [workspaceId, calls] of byWorkspace) {
      const result = await tx.execute<{ id: string | null; taken: string | null }>(sql`
        with input as (
          select * from json_to_recordset(${JSON.stringify(calls)}::json)
            as i(ord int, run_id text, workspace_id text, workflow_id text, body jsonb, record_id text,
                 idem_key text, fingerprint text, answer text)
        ), eligible as (
          select i.*, w.actions
            from input i
            join workflows w on w.workspace_id = ${workspaceId} and w.id = i.workflow_id
           where i.record_id is null
              or (select r.trashed_at is null from records r
                   where r.workspace_id = ${workspaceId} and r.id = i.record_id)
        ), keyed as (
          insert into idempotency_keys (workspace_id, key, fingerprint, state, status, headers, body, created_at, updated_at)
          select distinct on (e.idem_key) ${workspaceId}, e.idem_key, e.fingerprint, 'done', null,
                 null, e.answer, ${now.toISOString()}::timestamptz,
                 ${now.toISOString()}::timestamptz
            from eligible e where e.idem_key is not null
           order by e.idem_key, e.ord
          on conflict (workspace_id, key) do update
            set fingerprint = excluded.fingerprint, state = 'done', status = excluded.status,
                headers = excluded.headers, body = excluded.body, created_at = excluded.created_at,
                updated_at = excluded.updated_at
            where idempotency_keys.state <> 'done'
               or idempotency_keys.created_at < ${expired.toISOString()}::timestamptz
          returning body
        ), run as (
          insert into workflow_runs (workspace_id, id, workflow_id, trigger, input, record_id, context_record_id, actions)
          select ${workspaceId}, e.run_id, e.workflow_id, 'INCOMING_WEBHOOK', e.body, e.record_id, e.record_id, e.actions
            from eligible e
           where e.idem_key is null or e.answer in (select body from keyed)
           order by e.ord
          returning id
        )
        select run.id, null as taken from run
        union all
        select null, e.run_id from eligible e
         where e.idem_key is not null and e.answer not in (select body from keyed)`);
      rows.push(...result.rows);
    }
    const workspaceOf = new Map(items.map((item) => [item.run_id, item.workspace_id]));
    const runs = rows.flatMap((row) =>
      row.id ? [{ id: row.id, workspace_id: workspaceOf.get(row.id) }] : [],
    );
    if (runs.length > 0) {
      await tx.execute(sql`
        select graphile_worker.add_jobs(array(
          select row('run_workflow'::text, json_build_object('runId', r.id, 'workspaceId', r.workspace_id), null::text,
                     null::timestamptz, 25::smallint, null::text, null::smallint, null::text[])::graphile_worker.job_spec
            from json_to_recordset(${JSON.stringify(runs)}::json) as r(id text, workspace_id text)))`);
    }
    return rows;
  });
}

const recordNotFound = (id: string) => new DomainError('NOT_FOUND', `Record ${id} not found`);
