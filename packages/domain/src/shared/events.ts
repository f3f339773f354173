import { type EventType, eventTypes } from '@crm/constants';
import { type Executor, runNamedSql } from '@crm/db';
import type { HistorySubject } from '@crm/db/schema';
import { type SQL, sql } from 'drizzle-orm';
import { type Actor, type Provenance, provenanceOf } from './actor.ts';
import { createDeliveriesOfEvent, DELIVERY_CHANNEL } from './fan-out.ts';
import { newId } from './ids.ts';
import { missing } from './missing.ts';

/** The event kinds (docs/webhooks.md, "Event kinds"), defined with the other shared vocabularies in @crm/constants. */
export { type EventType, eventTypes };

export interface AppendedEvent {
  id: string;
  type: EventType;
  occurredAt: string;
  payload: Record<string, unknown>;
}

/** A change of one field of a record, deal or task, as its history keeps it (docs/api.md, "History and provenance"). */
export interface HistoryEntry {
  subject: HistorySubject;
  subjectId: string;
  field: string;
  from: unknown;
  to: unknown;
}

/**
 * An event to write: its kind and its type-specific fields, and the field history it stands
 * for. Without `history`, an `*.updated` event's history is its `changes`, one entry per field;
 * other events have none unless they say (a MANY side of a link, relations/apply-link-changes.ts).
 */
export interface NewEvent {
  type: EventType;
  fields: Record<string, unknown>;
  history?: HistoryEntry[];
}

/**
 * The stored and delivered form of an event: the common fields (id, event, workspaceId,
 * occurredAt) first, then the type-specific ones, then who made the change (`actor`,
 * `source`, `requestId`). One builder for `appendEvent` and `appendEvents`, so an event reads
 * the same whichever wrote it.
 */
function buildEvent(workspaceId: string, provenance: Provenance, { type, fields }: NewEvent): AppendedEvent {
  const id = newId('event');
  const occurredAt = new Date().toISOString();
  return {
    id,
    type,
    occurredAt,
    payload: {
      id,
      event: type,
      workspaceId,
      occurredAt,
      ...fields,
      actor: provenance.actor,
      source: provenance.source,
      requestId: provenance.requestId,
    },
  };
}

const UPDATED_SUBJECTS: Partial<Record<EventType, HistorySubject>> = {
  'record.updated': 'record',
  'deal.updated': 'deal',
  'task.updated': 'task',
};

/** The history an event stands for: what it says, or for an `*.updated` event each field of its `changes`. */
function historyOf(event: NewEvent): HistoryEntry[] {
  if (event.history) return event.history;
  const subject = UPDATED_SUBJECTS[event.type];
  if (!subject) return [];
  const subjectId = event.fields[`${subject}Id`];
  const changes = event.fields.changes as Record<string, { from: unknown; to: unknown }> | undefined;
  if (typeof subjectId !== 'string' || !changes) return [];
  return Object.entries(changes).map(([field, { from, to }]) => ({ subject, subjectId, field, from, to }));
}

/** The history rows of built events, as the statement that writes them reads them (JSON). */
function historyRows(built: AppendedEvent[], events: NewEvent[]): string {
  const rows = built.flatMap((event, n) =>
    historyOf(events[n] ?? missing('the event of each built one')).map((entry) => ({
      id: newId('history'),
      subject: entry.subject,
      subject_id: entry.subjectId,
      field: entry.field,
      from_value: entry.from ?? null,
      to_value: entry.to ?? null,
      at: event.occurredAt,
    })),
  );
  return JSON.stringify(rows);
}

/**
 * The statement that writes events (the CTE `event` given), their field history with the
 * change's provenance, one pending delivery per enabled subscription that wants each event,
 * and the ids of the events some enabled workflow of the workspace listens to. It reads and
 * writes rows of the one workspace only, so a sharded database runs it on the node that holds
 * the workspace (docs/scaling.md); what lives with the queue is done by `queueEventFollowUps`.
 * The history CTE is there even when a change has none (an empty list), so the text, and the
 * plan PostgreSQL keeps for it, is one.
 */
function eventStatement(event: SQL, actor: Actor, history: string, provenance: Provenance): SQL {
  const { workspaceId } = actor;
  const quiet = actor.quiet === true;
  return sql`
    with event as (${event}),
    ${historyCte(workspaceId, history, provenance, false)}, ${createDeliveriesOfEvent(workspaceId, quiet)}
    select (select count(*) from created_deliveries)::int as deliveries,
      (select count(*) from recorded_history)::int as history,
      array(select event.id from event
             where not ${quiet}::boolean and exists (
               select 1 from workflows
                where workspace_id = ${workspaceId} and enabled
                  and trigger_type = event.type and trigger_type <> 'INCOMING_WEBHOOK')) as starts`;
}

/**
 * The CTE `recorded_history`: the change's field history (a JSON list, historyRows) with its
 * provenance. `afterWrite`: only if the statement's `written` CTE wrote its row.
 */
function historyCte(workspaceId: string, history: string, provenance: Provenance, afterWrite: boolean): SQL {
  return sql`recorded_history as (
      insert into history (workspace_id, subject_id, id, subject, field, from_value, to_value,
                           actor_type, actor_id, actor_name, source, request_id, at)
      select ${workspaceId}, h.subject_id, h.id, h.subject, h.field, h.from_value, h.to_value,
             ${provenance.actor.type}, ${provenance.actor.id}, ${provenance.actor.name},
             ${provenance.source}, ${provenance.requestId}, h.at
        from jsonb_to_recordset(${history}::jsonb)
          as h(id text, subject text, subject_id text, field text, from_value jsonb, to_value jsonb, at timestamptz)${
            afterWrite
              ? sql`
       where exists (select 1 from written)`
              : sql``
          }
      returning 1
    )`;
}

/**
 * Wakes the delivery workers (on commit: a NOTIFY is sent only if the transaction commits)
 * when deliveries were made, naming the workspace, whose deliveries a worker on a sharded
 * database then claims without looking at every shard, and queues the job that starts the workflows an event triggers.
 * Changes made by a workflow run (marked by the transaction setting crm.workflow_run) start no
 * workflows, so two workflows cannot trigger each other forever (a quiet caller's events,
 * Actor.quiet, name no workflow to start: `eventStatement`). A second statement, sent only
 * when there is something to do, since the queue is not where a sharded workspace's rows are.
 */
async function queueEventFollowUps(
  tx: Executor,
  workspaceId: string,
  made: { deliveries: number; starts: string[] } | undefined,
): Promise<void> {
  if (!made || (made.deliveries === 0 && made.starts.length === 0)) return;
  await runNamedSql(
    tx,
    'queue_event_follow_ups',
    sql`
    with wake as (select pg_notify(${DELIVERY_CHANNEL}, ${workspaceId}::text) where ${made.deliveries}::int > 0),
    start_workflows as (
      select graphile_worker.add_job('start_event_workflows',
        json_build_object('eventId', e.id, 'workspaceId', ${workspaceId}::text), max_attempts := 25)
      from jsonb_array_elements_text(${JSON.stringify(made.starts)}::jsonb) as e(id)
      where coalesce(current_setting('crm.workflow_run', true), '') = ''
    )
    select (select count(*) from wake) + (select count(*) from start_workflows) as follow_ups`,
  );
}

type EventMade = { deliveries: number; history: number; starts: string[] };

/**
 * Writes an event in the caller's transaction, so it exists exactly when the change does
 * (docs/webhooks.md, "Delivery"): the common fields (id, event, workspaceId, occurredAt) and
 * the change's provenance (`actor`, `source`, `requestId`, from `actor`) are added to `fields`.
 * The same statement writes the change's field history, creates one pending delivery per
 * enabled subscription that wants the event (`*` matches every kind; a subscription with
 * `fields` gets an `*.updated` event only when one of those fields changed) and finds the
 * workflows it triggers; a committed event is never lost and a rolled-back one never sent.
 */
export async function appendEvent(
  tx: Executor,
  actor: Actor,
  type: EventType,
  fields: Record<string, unknown>,
  history?: HistoryEntry[],
): Promise<AppendedEvent> {
  const [event] = await appendEvents(tx, actor, [{ type, fields, ...(history ? { history } : {}) }]);
  if (!event) missing('event, the first of what the call returned');
  return event;
}

/**
 * `appendEvent` for many events of one workspace in one statement (batch writes): the same
 * payloads, history, deliveries and workflow starts as that many `appendEvent` calls, in order.
 */
export async function appendEvents(tx: Executor, actor: Actor, events: NewEvent[]): Promise<AppendedEvent[]> {
  if (events.length === 0) return [];
  const { workspaceId } = actor;
  const provenance = provenanceOf(actor);
  const built = events.map((event) => buildEvent(workspaceId, provenance, event));
  const history = historyRows(built, events);
  // One event is written from plain parameters (the common case: one change, one event);
  // several from one JSON list.
  const [first] = built;
  if (!first) missing('the first event of a non-empty list');
  const single = built.length === 1;
  const insert = single
    ? sql`
      insert into events (workspace_id, id, type, payload, occurred_at)
      values (${workspaceId}, ${first.id}, ${first.type}, ${JSON.stringify(first.payload)}::jsonb, ${first.occurredAt}::timestamptz)
      returning id, workspace_id, type, payload`
    : sql`
      insert into events (workspace_id, id, type, payload, occurred_at)
      select ${workspaceId}, e.id, e.type, e.payload, e.occurred_at
        from jsonb_to_recordset(${JSON.stringify(
          built.map((e) => ({ id: e.id, type: e.type, payload: e.payload, occurred_at: e.occurredAt })),
        )}::jsonb)
          as e(id text, type text, payload jsonb, occurred_at timestamptz)
      returning id, workspace_id, type, payload`;
  const made = await runNamedSql<EventMade>(
    tx,
    single ? 'append_event' : 'append_events',
    eventStatement(insert, actor, history, provenance),
  );
  await queueEventFollowUps(tx, workspaceId, made[0]);
  return built;
}

/** The snapshot in the payload of the written row's events: `record` or `deal`, whose instants the row gives. */
export type WrittenSnapshot = 'record' | 'deal';

/**
 * A write and its events as ONE statement, sent without BEGIN and COMMIT: a statement commits
 * or fails whole (docs/performance.md, "Writes in one statement"). `written` is the body of a
 * CTE named `written` (an INSERT or UPDATE … RETURNING created_at, updated_at) that writes
 * nothing when its own guard fails; then nothing else is written either and the statement
 * returns no row. The event is built as appendEvent builds it, with the instants of its
 * `snapshot` (`createdAt`, `updatedAt`) taken from the written row, so the payload shows the row as the database dated it. The same
 * statement writes the field history, the pending deliveries, the NOTIFY that wakes the
 * delivery workers and the jobs that start the workflows the event triggers: what appendEvent
 * and its follow-up statement do in a transaction. One server only; a sharded database keeps
 * the queue elsewhere, so there the caller takes the transactional path. Sent as the named
 * statement `name`; answers the row's instants, or undefined when the guard wrote nothing.
 */
export async function writeWithEvents(
  db: Executor,
  name: string,
  actor: Actor,
  events: NewEvent[],
  written: SQL,
  snapshot: WrittenSnapshot,
  /** More CTEs written with the row (`name as (…)`, reading `written`), e.g. a link of a new deal. */
  alongside?: SQL,
): Promise<{ createdAt: Date; updatedAt: Date } | undefined> {
  const { workspaceId } = actor;
  const quiet = actor.quiet === true;
  const provenance = provenanceOf(actor);
  const built = events.map((event) => buildEvent(workspaceId, provenance, event));
  const history = historyRows(built, events);
  const stamped = (payload: SQL) =>
    sql`jsonb_set(jsonb_set(${payload},
               ${`{${snapshot},createdAt}`}::text[], to_jsonb(${isoOf('created_at')})),
               ${`{${snapshot},updatedAt}`}::text[], to_jsonb(${isoOf('updated_at')}))`;
  // One event from plain parameters (a create), several from one JSON list (a stage move).
  const [first] = built;
  const event =
    first && built.length === 1
      ? sql`
      insert into events (workspace_id, id, type, payload, occurred_at)
      select ${workspaceId}, ${first.id}, ${first.type},
             ${stamped(sql`${JSON.stringify(first.payload)}::jsonb`)},
             ${first.occurredAt}::timestamptz
        from written w
      returning id, workspace_id, type, payload`
      : sql`
      insert into events (workspace_id, id, type, payload, occurred_at)
      select ${workspaceId}, e.id, e.type, ${stamped(sql`e.payload`)}, e.occurred_at
        from written w,
             jsonb_to_recordset(${JSON.stringify(
               built.map((e) => ({ id: e.id, type: e.type, payload: e.payload, occurred_at: e.occurredAt })),
             )}::jsonb)
          as e(id text, type text, payload jsonb, occurred_at timestamptz)
      returning id, workspace_id, type, payload`;
  const statement = sql`
    with written as (${written}),${
      alongside
        ? sql`
    ${alongside},`
        : sql``
    }
    event as (${event}),
    ${historyCte(workspaceId, history, provenance, true)}, ${createDeliveriesOfEvent(workspaceId, quiet)},
    wake as (
      select pg_notify(${DELIVERY_CHANNEL}, ${workspaceId}::text)
       where exists (select 1 from created_deliveries)
    ),
    start_workflows as (
      select graphile_worker.add_job('start_event_workflows',
        json_build_object('eventId', e.id, 'workspaceId', ${workspaceId}::text), max_attempts := 25)
        from event e
       where coalesce(current_setting('crm.workflow_run', true), '') = ''
         and not ${quiet}::boolean
         and exists (
           select 1 from workflows
            where workspace_id = ${workspaceId} and enabled
              and trigger_type = e.type and trigger_type <> 'INCOMING_WEBHOOK')
    )
    select ${isoOf('created_at')} as created_at, ${isoOf('updated_at')} as updated_at,
      (select count(*) from recorded_history)::int as history,
      (select count(*) from wake)::int + (select count(*) from start_workflows)::int as follow_ups
      from written w`;
  const [row] = await runNamedSql<{ created_at: string; updated_at: string }>(db, name, statement);
  return row && { createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) };
}

/**
 * A column of the written row `w` as the API writes instants (`2026-11-21T09:30:00.000Z`):
 * milliseconds, cut rather than rounded, as node-postgres reads a timestamp into a Date.
 */
function isoOf(column: string): SQL {
  return sql.raw(`to_char(w.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
}
