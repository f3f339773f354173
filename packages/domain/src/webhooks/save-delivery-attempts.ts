import { type Database, type Executor, isSharded } from '@crm/db';
import { sql } from 'drizzle-orm';
import { isDataRefusal } from '../shared/data-refusal.ts';
import { newId } from '../shared/ids.ts';
import type { ClaimedDelivery } from './claim-deliveries.ts';
import { MAX_ATTEMPTS, nextRetryDelayMs, parseRetryAfter, type RetryPolicy } from './retry-schedule.ts';

/**
 * A subscription failing without a single success for this long is disabled (docs/webhooks.md,
 * "Delivery, retries, disabling").
 */
const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;

export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  status?: number | undefined;
  headers?: Record<string, string | string[] | undefined> | undefined;
  excerpt?: string | undefined;
  error?: string | undefined;
  /** Kept, not sent: a sandbox's delivery to a URL it does not allow (docs/operations.md, "Sandboxes"). */
  captured?: boolean | undefined;
}

/**
 * What became of a claimed delivery: `cancelled` when it was closed without an attempt
 * (subscription disabled, event no longer kept), `lost` when its claim had run out and
 * another worker had taken it over, so nothing was recorded.
 */
export type AttemptVerdict =
  | 'succeeded'
  | 'retry'
  | 'failed'
  | 'disabled'
  | 'cancelled'
  | 'lost'
  | 'captured';

/** One claimed delivery and how its attempt went; no outcome closes it without an attempt. */
export interface DeliveryAttempt {
  delivery: ClaimedDelivery;
  outcome: AttemptOutcome | null;
}

type Kind = 'succeeded' | 'gone' | 'retry' | 'failed' | 'cancel' | 'captured';

/**
 * The rule for one attempt, decided here: a 2xx succeeds; 410 Gone disables the
 * subscription at once; anything else is retried on the schedule (Retry-After honoured on
 * 429/503) until the attempts run out. The 5-day rule needs the subscription's row and is
 * applied in the statement.
 */
function judge(delivery: ClaimedDelivery, outcome: AttemptOutcome | null, policy: RetryPolicy, now: number) {
  if (!outcome) return { kind: 'cancel' as Kind, retryAt: null };
  if (outcome.captured) return { kind: 'captured' as Kind, retryAt: null };
  const status = outcome.status;
  if (status !== undefined && status >= 200 && status < 300)
    return { kind: 'succeeded' as Kind, retryAt: null };
  if (status === 410) return { kind: 'gone' as Kind, retryAt: null };
  const attempt = delivery.attemptCount + 1;
  const retryAfter =
    status === 429 || status === 503
      ? parseRetryAfter(headerValue(outcome.headers, 'retry-after'), now)
      : null;
  const delay = attempt < MAX_ATTEMPTS ? nextRetryDelayMs(attempt, policy, retryAfter) : null;
  if (delay === null) return { kind: 'failed' as Kind, retryAt: null };
  return { kind: 'retry' as Kind, retryAt: new Date(now + delay).toISOString() };
}

/**
 * Records the attempts of many claimed deliveries in one statement, and what follows each:
 * the attempt row (status, code, duration, error, excerpt), the delivery's new state and
 * next attempt, and the subscriptions' health. Per subscription, a success in the batch
 * clears `failingSince`; failures alone start it, and disable the subscription once it is
 * 5 days old; a 410 disables it at once. Each delivery's own retry follows its own
 * schedule. A delivery is recorded only under the claim that sent it (`leaseUntil`), so an
 * attempt is never recorded twice. Subscription rows are locked in key order, so workers
 * recording at once cannot deadlock, and a success touches its subscription at most once a
 * minute.
 */
export async function saveDeliveryAttempts(
  db: Database,
  attempts: readonly DeliveryAttempt[],
  policy: RetryPolicy,
): Promise<Map<string, AttemptVerdict>> {
  const verdicts = new Map<string, AttemptVerdict>();
  if (attempts.length === 0) return verdicts;
  const now = Date.now();
  const rows = attempts.map(({ delivery, outcome }): AttemptRow => {
    const { kind, retryAt } = judge(delivery, outcome, policy, now);
    return {
      delivery_id: delivery.id,
      workspace_id: delivery.workspaceId,
      webhook_id: delivery.webhookId,
      lease_until: delivery.leaseUntil.toISOString(),
      kind,
      retry_at: retryAt,
      attempt: delivery.attemptCount + (outcome ? 1 : 0),
      attempt_id: outcome ? newId('attempt') : null,
      started_at: outcome?.startedAt.toISOString() ?? null,
      duration_ms: outcome ? Math.round(outcome.durationMs) : null,
      response_status: outcome?.status ?? null,
      error: outcome?.error === undefined ? null : storableText(outcome.error),
      excerpt: outcome?.excerpt === undefined ? null : storableText(outcome.excerpt),
    };
  });
  // A sharded database runs the statement when it names one workspace (docs/scaling.md).
  const batches: { rows: AttemptRow[]; scope: Scope }[] = [];
  if (await isSharded(db)) {
    const byWorkspace = new Map<string, AttemptRow[]>();
    for (const row of rows)
      byWorkspace.set(row.workspace_id, [...(byWorkspace.get(row.workspace_id) ?? []), row]);
    for (const [workspaceId, of] of byWorkspace)
      batches.push({ rows: of, scope: { workspaceId, now: new Date(now).toISOString() } });
  } else batches.push({ rows, scope: undefined });
  for (const batch of batches)
    for (const row of await saveIsolated(db, batch.rows, batch.scope)) verdicts.set(row.id, verdictOf(row));
  for (const { delivery } of attempts) if (!verdicts.has(delivery.id)) verdicts.set(delivery.id, 'lost');
  return verdicts;
}

type AttemptRow = {
  delivery_id: string;
  workspace_id: string;
  webhook_id: string;
  lease_until: string;
  kind: Kind;
  retry_at: string | null;
  attempt: number;
  attempt_id: string | null;
  started_at: string | null;
  duration_ms: number | null;
  response_status: number | null;
  error: string | null;
  excerpt: string | null;
};

type RecordedRow = { id: string; kind: Kind; status: string; disabled: boolean };

/**
 * The one workspace a statement is narrowed to, and its instant: a sharded database routes a
 * statement whose every table is filtered on one workspace, and takes no `now()` inside
 * CASE or COALESCE, so the instant is passed in. Undefined on one server: every workspace,
 * and the server's `now()`.
 */
type Scope = { workspaceId: string; now: string } | undefined;

/**
 * The batch statement, and, should PostgreSQL refuse something one attempt carried, each
 * attempt alone: the deliveries of other subscriptions (other tenants') are recorded all the
 * same. An attempt that cannot be recorded even alone is left to its claim running out.
 */
async function saveIsolated(db: Database, rows: AttemptRow[], scope: Scope): Promise<RecordedRow[]> {
  try {
    return await saveBatch(db, rows, scope);
  } catch (error) {
    if (!isDataRefusal(error)) throw error;
    const recorded: RecordedRow[] = [];
    if (rows.length === 1) return recorded;
    for (const row of rows) recorded.push(...(await saveIsolated(db, [row], scope)));
    return recorded;
  }
}

async function saveBatch(db: Database, rows: AttemptRow[], scope: Scope): Promise<RecordedRow[]> {
  if (!scope) return saveStatement(db, rows, scope);
  // A sharded database runs this statement's CTEs one by one through the coordinator, and
  // fails an insert among them that reads the others' results ("missing data for column"):
  // there the attempts are inserted by a second statement of the same transaction.
  return db.transaction(async (tx) => {
    const recorded = await saveStatement(tx, rows, scope);
    if (recorded.length === 0) return recorded;
    await tx.execute(sql`
      insert into delivery_attempts (workspace_id, id, delivery_id, attempt, started_at, duration_ms,
        response_status, error, response_excerpt)
      select i.workspace_id, i.attempt_id, i.delivery_id, i.attempt, i.started_at, i.duration_ms,
        i.response_status, i.error, i.excerpt
      from (${inputOf(rows)}) i
      where i.workspace_id = ${scope.workspaceId} and i.kind <> 'cancel'
        and i.delivery_id in (select jsonb_array_elements_text(${JSON.stringify(recorded.map((row) => row.id))}::jsonb))`);
    return recorded;
  });
}

/** On one server: the attempt rows of the deliveries `updated`, as the statement's last CTE. */
const recordAttempts = sql`, recorded as (
      insert into delivery_attempts (workspace_id, id, delivery_id, attempt, started_at, duration_ms,
        response_status, error, response_excerpt)
      select i.workspace_id, i.attempt_id, i.delivery_id, i.attempt, i.started_at, i.duration_ms,
        i.response_status, i.error, i.excerpt
      from input i join updated u on u.workspace_id = i.workspace_id and u.id = i.delivery_id
      where i.kind <> 'cancel'
    )
`;

function inputOf(rows: AttemptRow[]) {
  return sql`
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as i(
        delivery_id text, workspace_id text, webhook_id text, lease_until timestamptz, kind text,
        retry_at timestamptz, attempt integer, attempt_id text, started_at timestamptz,
        duration_ms integer, response_status integer, error text, excerpt text)`;
}

async function saveStatement(db: Executor, rows: AttemptRow[], scope: Scope): Promise<RecordedRow[]> {
  const now = scope ? sql`${scope.now}::timestamptz` : sql`now()`;
  const of = (alias: string) =>
    scope ? sql`${sql.raw(alias)}.workspace_id = ${scope.workspaceId} and ` : sql``;
  const result = await db.execute<RecordedRow>(sql`
    with input as (${inputOf(rows)}
    ), per_webhook as (
      select workspace_id, webhook_id, bool_or(kind = 'succeeded') as succeeded,
        bool_or(kind = 'gone') as gone, bool_or(kind in ('retry', 'failed')) as failed
      from input where kind <> 'cancel' group by workspace_id, webhook_id
    ), locked as (
      select w.workspace_id, w.id, p.succeeded, p.gone, p.failed,
        w.enabled and not p.succeeded and p.failed
          and coalesce(w.failing_since, ${now}) <= ${now} - make_interval(secs => ${DISABLE_AFTER_FAILING_MS / 1000})
          as hopeless
      from webhooks w join per_webhook p on p.workspace_id = w.workspace_id and p.webhook_id = w.id
      where ${of('w')}(p.gone or p.failed or w.failing_since is not null or w.last_success_at is null
        or w.last_success_at < ${now} - interval '1 minute')
      order by w.workspace_id, w.id
      for update of w
    ), touched as (
      update webhooks w set
        last_success_at = case when l.succeeded then ${now} else w.last_success_at end,
        failing_since = case when l.succeeded then null when l.failed then coalesce(w.failing_since, ${now})
          else w.failing_since end,
        enabled = w.enabled and not l.gone and not l.hopeless,
        disabled_reason = case when not w.enabled then w.disabled_reason
          when l.gone then 'The receiver answered 410 Gone'
          when l.hopeless then 'No successful delivery for 5 days' else w.disabled_reason end,
        updated_at = case when w.enabled and (l.gone or l.hopeless) then ${now} else w.updated_at end
      from locked l where ${of('w')}w.workspace_id = l.workspace_id and w.id = l.id
      returning w.workspace_id, w.id, l.hopeless
    ), updated as (
      update deliveries d set
        status = case
          when i.kind = 'succeeded' then 'SUCCEEDED'
          when i.kind = 'captured' then 'CAPTURED'
          when i.kind = 'retry' and not coalesce(t.hopeless, false) then 'PENDING'
          else 'FAILED' end,
        attempt_count = i.attempt,
        next_attempt_at = case when i.kind = 'retry' and not coalesce(t.hopeless, false) then i.retry_at end,
        updated_at = ${now}
      from input i
      left join touched t on t.workspace_id = i.workspace_id and t.id = i.webhook_id
      where ${of('d')}d.workspace_id = i.workspace_id and d.id = i.delivery_id and d.status = 'PENDING'
        and d.next_attempt_at = i.lease_until
      returning d.workspace_id, d.id, i.kind, d.status, coalesce(t.hopeless, false) and i.kind in ('retry', 'failed') as disabled
    )${scope ? sql`` : recordAttempts}
    select id, kind, status, disabled from updated`);
  return result.rows;
}

function verdictOf(row: { kind: Kind; status: string; disabled: boolean }): AttemptVerdict {
  if (row.kind === 'cancel') return 'cancelled';
  if (row.kind === 'captured') return 'captured';
  if (row.kind === 'gone' || row.disabled) return 'disabled';
  if (row.kind === 'succeeded') return 'succeeded';
  return row.status === 'PENDING' ? 'retry' : 'failed';
}

/**
 * PostgreSQL text cannot hold U+0000, which a receiver's response may contain, nor half of a
 * surrogate pair, which cutting an excerpt short may leave (replaced by U+FFFD).
 */
function storableText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replaceAll('\u0000', '');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function headerValue(headers: AttemptOutcome['headers'], name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}
