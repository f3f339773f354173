import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '@crm/db';
import { sql } from 'drizzle-orm';
import { DomainError, invalid } from '../shared/errors.ts';
import { isId, newId } from '../shared/ids.ts';

/** What the trigger endpoint needs of a workflow. */
export interface TriggerWorkflow {
  id: string;
  workspaceId: string;
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  rateLimitPerMinute: number;
}

/** Unknown, disabled, of another trigger type, malformed: one answer, so a URL reveals nothing. */
const noWorkflow = () => new DomainError('NOT_FOUND', 'No enabled workflow at this URL');

/** The enabled INCOMING_WEBHOOK workflow behind a trigger URL, or the one 404. */
export async function findTriggerWorkflow(db: Database, id: string): Promise<TriggerWorkflow> {
  if (!isId('workflow', id)) throw noWorkflow();
  // A named statement: parsed and planned once per connection, it runs on every call.
  const result = await db.$client.query({
    name: 'find_trigger_workflow',
    text: `select id, workspace_id, secret, previous_secret, previous_secret_expires_at, rate_limit_per_minute
             from workflows where id = $1 and enabled and trigger_type = 'INCOMING_WEBHOOK'`,
    values: [id],
  });
  const row = result.rows[0] as
    | {
        id: string;
        workspace_id: string;
        secret: string | null;
        previous_secret: string | null;
        previous_secret_expires_at: Date | null;
        rate_limit_per_minute: number;
      }
    | undefined;
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
  const given = Buffer.from(match[1]!.toLowerCase(), 'hex');
  const secrets = [workflow.secret];
  if (workflow.previousSecret && workflow.previousSecretExpiresAt && workflow.previousSecretExpiresAt > now) {
    secrets.push(workflow.previousSecret);
  }
  if (!secrets.some((secret) => timingSafeEqual(signatureOf(secret, body), given))) {
    throw new DomainError('UNAUTHORIZED', 'X-Service-Signature does not match the body');
  }
}

/**
 * Queues a run of `workflow` for an incoming call, durably: the run and its job are written
 * by one statement (one transaction) before the caller answers 200. A `recordId` must be a
 * string (400) naming a live record of the workflow's workspace (404); the check is part of
 * the same statement.
 */
export async function queueTriggeredRun(
  db: Database,
  workflow: TriggerWorkflow,
  body: Record<string, unknown>,
): Promise<string> {
  const recordId = body.recordId;
  if (recordId !== undefined && recordId !== null && typeof recordId !== 'string') {
    throw invalid('recordId', 'must be a string (a record id)');
  }
  const contextRecord = typeof recordId === 'string' ? recordId : null;
  if (contextRecord !== null && !isId('record', contextRecord)) throw recordNotFound(contextRecord);
  const runId = newId('run');
  const result = await db.execute<{ id: string }>(sql`
    with run as (
      insert into workflow_runs (workspace_id, id, workflow_id, trigger, input, record_id, context_record_id, actions)
      select w.workspace_id, ${runId}, w.id, 'INCOMING_WEBHOOK', ${JSON.stringify(body)}::jsonb, ${contextRecord}, ${contextRecord}, w.actions
        from workflows w
       where w.id = ${workflow.id}
         and (${contextRecord}::text is null or exists (
               select 1 from records r
                where r.workspace_id = w.workspace_id and r.id = ${contextRecord}::text and r.trashed_at is null))
      returning id
    )
    select run.id
      from run
     cross join lateral graphile_worker.add_job('run_workflow', json_build_object('runId', run.id),
                                                job_key := run.id, max_attempts := 25) as job`);
  if (result.rows.length === 0) {
    if (contextRecord !== null) throw recordNotFound(contextRecord);
    throw noWorkflow();
  }
  return runId;
}

const recordNotFound = (id: string) => new DomainError('NOT_FOUND', `Record ${id} not found`);
