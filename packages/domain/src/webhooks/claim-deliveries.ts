import { type Database, isSharded } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import type { SandboxPolicy } from '../shared/sandbox-policy.ts';

/**
 * How long a claimed delivery belongs to the worker that claimed it. Well above the longest
 * attempt (15 s by default) plus its recording; a worker that dies mid-attempt leaves the
 * delivery to be claimed again once it passes.
 */
export const DEFAULT_LEASE_MS = 60_000;

/** A pending delivery a worker has claimed, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  workspaceId: string;
  webhookId: string;
  eventId: string;
  /** Attempts recorded before this one. */
  attemptCount: number;
  /** The claim: `next_attempt_at` as set by it. Recording checks it, so a claim that ran out records nothing. */
  leaseUntil: Date;
  /** `next_attempt_at` before the claim: when the delivery was due. */
  dueAt: Date;
  /** Secrets and header values as stored (sealed); the sender opens them (`openSecret`). */
  webhook: {
    url: string;
    headers: Record<string, string>;
    enabled: boolean;
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: Date | null;
  };
  /** Null when the event is no longer kept (30 days). */
  event: { id: string; type: string; payload: unknown } | null;
  /** Where a sandbox sends (docs/operations.md, "Sandboxes"); null for any other workspace. */
  sandbox: SandboxPolicy | null;
}

interface ClaimedRow extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  webhook_id: string;
  event_id: string;
  attempt_count: number;
  lease_until: string;
  due_at: string;
  url: string;
  headers: Record<string, string>;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  event_type: string | null;
  payload: unknown;
  sandbox: boolean;
  sandbox_allow: string[];
}

/**
 * Claims up to `limit` due pending deliveries, oldest due first: rows another worker is
 * claiming are skipped, and a claim moves `next_attempt_at` to the end of the lease, so the
 * delivery is not due for anyone else while it is being sent. Deliveries of the
 * subscriptions in `skipWebhookIds` are left for later (the caller has enough of theirs in
 * flight). Deliveries of disabled subscriptions are claimed too; the caller closes them
 * without sending.
 *
 * On one server this is one statement over every workspace. A sharded database locks rows
 * only in a statement that names one workspace (docs/scaling.md): there the workspaces with
 * due deliveries are found first, oldest due first and without a lock, and each is claimed
 * from in turn with the same statement narrowed to it, until the batch is full. When the
 * caller knows where to look (`inWorkspaces`: the workspaces it was told have new
 * deliveries), only those are claimed from, and nothing is asked of every shard; one server
 * ignores it.
 */
export async function claimDueDeliveries(
  db: Database,
  limit: number,
  leaseMs: number = DEFAULT_LEASE_MS,
  skipWebhookIds: readonly string[] = [],
  inWorkspaces?: readonly string[],
): Promise<ClaimedDelivery[]> {
  const skip =
    skipWebhookIds.length === 0
      ? sql``
      : sql`and webhook_id not in (select jsonb_array_elements_text(${JSON.stringify(skipWebhookIds)}::jsonb))`;
  if (!(await isSharded(db))) {
    const result = await db.execute<ClaimedRow>(claimStatement(limit, leaseMs, skip));
    return result.rows.map(toClaimed);
  }
  const workspaces =
    inWorkspaces ??
    (
      await db.execute<{ workspace_id: string }>(sql`
        select workspace_id from deliveries
        where status = 'PENDING' and next_attempt_at <= now() ${skip}
        group by workspace_id
        order by min(next_attempt_at)
        limit ${limit}`)
    ).rows.map((row) => row.workspace_id);
  const claimed: ClaimedDelivery[] = [];
  for (const workspaceId of workspaces) {
    const room = limit - claimed.length;
    if (room <= 0) break;
    const result = await db.execute<ClaimedRow>(claimStatement(room, leaseMs, skip, workspaceId));
    claimed.push(...result.rows.map(toClaimed));
  }
  return claimed;
}

/** The claim, of every workspace or of the one named (each table filtered on it, so it is routed). */
function claimStatement(limit: number, leaseMs: number, skip: SQL, workspaceId?: string) {
  const of = (alias: string) =>
    workspaceId === undefined ? sql`` : sql`${sql.raw(alias)}workspace_id = ${workspaceId} and `;
  return sql`
    with due as (
      select workspace_id, id, next_attempt_at as due_at from deliveries
      where ${of('')}status = 'PENDING' and next_attempt_at <= now() ${skip}
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    ), claimed as (
      update deliveries d set next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
      from due where ${of('d.')}d.workspace_id = due.workspace_id and d.id = due.id
      returning d.id, d.workspace_id, d.webhook_id, d.event_id, d.attempt_count, d.next_attempt_at, due.due_at
    )
    select c.id, c.workspace_id, c.webhook_id, c.event_id, c.attempt_count, c.next_attempt_at as lease_until, c.due_at,
      w.url, w.headers, w.enabled, w.secret, w.previous_secret, w.previous_secret_expires_at,
      e.type as event_type, e.payload, ws.sandbox_of is not null as sandbox, ws.sandbox_allow
    from claimed c
    join webhooks w on ${of('w.')}w.workspace_id = c.workspace_id and w.id = c.webhook_id
    join workspaces ws on ws.id = c.workspace_id
    left join events e on ${of('e.')}e.workspace_id = c.workspace_id and e.id = c.event_id`;
}

function toClaimed(row: ClaimedRow): ClaimedDelivery {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    attemptCount: row.attempt_count,
    leaseUntil: new Date(row.lease_until),
    dueAt: new Date(row.due_at),
    webhook: {
      url: row.url,
      headers: row.headers,
      enabled: row.enabled,
      secret: row.secret,
      previousSecret: row.previous_secret,
      previousSecretExpiresAt: row.previous_secret_expires_at
        ? new Date(row.previous_secret_expires_at)
        : null,
    },
    event: row.event_type === null ? null : { id: row.event_id, type: row.event_type, payload: row.payload },
    sandbox: row.sandbox ? { allow: row.sandbox_allow } : null,
  };
}

/**
 * Gives claimed deliveries back unsent, due when they were before the claim (a worker
 * claimed more of one subscription's deliveries than it may have in flight). A claim that
 * has run out meanwhile is left alone.
 */
export async function releaseDeliveries(db: Database, deliveries: readonly ClaimedDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const rows = deliveries.map((d) => ({
    workspace_id: d.workspaceId,
    id: d.id,
    lease_until: d.leaseUntil.toISOString(),
    due_at: d.dueAt.toISOString(),
  }));
  await db.execute(sql`
    update deliveries d set next_attempt_at = r.due_at
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(workspace_id text, id text, lease_until timestamptz, due_at timestamptz)
    where d.workspace_id = r.workspace_id and d.id = r.id and d.status = 'PENDING' and d.next_attempt_at = r.lease_until`);
}
