/**
 * The bare server's copies of the service's one-statement writes (writeWithEvents in
 * @crm/domain): the write, its event or events, field history, deliveries, the NOTIFY and the
 * workflow jobs, as drizzle renders them, word for word, with their parameters numbered as
 * the service numbers them. The benchmark's parity check holds every text against the one
 * the service sends, and fails the run on any difference.
 */

/** An instant of the written row `w` as the API writes instants (isoOf in @crm/domain). */
const ISO = (column: string) => `to_char(w.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const p = (n: number) => `$${n}`;

/** One event from plain parameters: workspace, id, type, payload, its two instant paths, occurredAt (7, from `n`). */
function oneEvent(n: number): string {
  return `
      insert into events (workspace_id, id, type, payload, occurred_at)
      select ${p(n)}, ${p(n + 1)}, ${p(n + 2)},
             jsonb_set(jsonb_set(${p(n + 3)}::jsonb,
               ${p(n + 4)}::text[], to_jsonb(${ISO('created_at')})),
               ${p(n + 5)}::text[], to_jsonb(${ISO('updated_at')})),
             ${p(n + 6)}::timestamptz
        from written w
      returning id, workspace_id, type, payload`;
}

/** Several events from one JSON list: workspace, the two instant paths, the list (4, from `n`). */
function manyEvents(n: number): string {
  return `
      insert into events (workspace_id, id, type, payload, occurred_at)
      select ${p(n)}, e.id, e.type, jsonb_set(jsonb_set(e.payload,
               ${p(n + 1)}::text[], to_jsonb(${ISO('created_at')})),
               ${p(n + 2)}::text[], to_jsonb(${ISO('updated_at')})), e.occurred_at
        from written w,
             jsonb_to_recordset(${p(n + 3)}::jsonb)
          as e(id text, type text, payload jsonb, occurred_at timestamptz)
      returning id, workspace_id, type, payload`;
}

/**
 * From the history on (14 parameters, from `n`): workspace, the actor's type, id and name,
 * source, request id, the history list, then the workspace for the subscriptions and whether
 * the caller is quiet, the delivery channel and the workspace it names, and for the workflows
 * the workspace, whether the caller is quiet, and the workspace again.
 */
function afterEvents(n: number): string {
  return `
    recorded_history as (
      insert into history (workspace_id, subject_id, id, subject, field, from_value, to_value,
                           actor_type, actor_id, actor_name, source, request_id, at)
      select ${p(n)}, h.subject_id, h.id, h.subject, h.field, h.from_value, h.to_value,
             ${p(n + 1)}, ${p(n + 2)}, ${p(n + 3)},
             ${p(n + 4)}, ${p(n + 5)}, h.at
        from jsonb_to_recordset(${p(n + 6)}::jsonb)
          as h(id text, subject text, subject_id text, field text, from_value jsonb, to_value jsonb, at timestamptz)
       where exists (select 1 from written)
      returning 1
    ), created_deliveries as (
      insert into deliveries (workspace_id, id, webhook_id, event_id, status, next_attempt_at)
      select w.workspace_id, new_typeid('dlv'), w.id, e.id, 'PENDING', now()
      from event e
      join (select * from webhooks where workspace_id = ${p(n + 7)} and enabled for key share) w on w.workspace_id = e.workspace_id and w.enabled and w.events && array[e.type, '*']::text[]
      where (e.type not in ('record.updated', 'deal.updated', 'task.updated') or cardinality(w.fields) = 0
        or w.fields && array(select jsonb_array_elements_text(e.payload->'changedFields')))
        and not ${p(n + 8)}::boolean
      on conflict do nothing
      returning id
    ),
    wake as (
      select pg_notify(${p(n + 9)}, ${p(n + 10)}::text)
       where exists (select 1 from created_deliveries)
    ),
    start_workflows as (
      select graphile_worker.add_job('start_event_workflows',
        json_build_object('eventId', e.id, 'workspaceId', ${p(n + 11)}::text), max_attempts := 25)
        from event e
       where coalesce(current_setting('crm.workflow_run', true), '') = ''
         and not ${p(n + 12)}::boolean
         and exists (
           select 1 from workflows
            where workspace_id = ${p(n + 13)} and enabled
              and trigger_type = e.type and trigger_type <> 'INCOMING_WEBHOOK')
    )
    select ${ISO('created_at')} as created_at, ${ISO('updated_at')} as updated_at,
      (select count(*) from recorded_history)::int as history,
      (select count(*) from wake)::int + (select count(*) from start_workflows)::int as follow_ups
      from written w`;
}

/** The parameters of afterEvents, in order. */
export function afterEventsValues(
  workspaceId: string,
  actor: { type: string; id: string; name: string },
  requestId: string,
  history: string,
): unknown[] {
  return [
    workspaceId,
    actor.type,
    actor.id,
    actor.name,
    'rest',
    requestId,
    history,
    workspaceId,
    false,
    'crm_deliveries',
    workspaceId,
    workspaceId,
    false,
    workspaceId,
  ];
}

/**
 * createRecord (`create_record`): $1–$9 the record (its search text's signature last), $10–$12
 * the folder guard, then one event and the rest.
 */
export const CREATE_RECORD_SQL = `
    with written as (
      insert into "records" (workspace_id, id, folder_id, title, email, phone, data, owner_id, search_text, search_signature)
      select $1, $2, $3, $4, $5, $6,
             $7::jsonb, null, lower($8::text), $9::bytea
        from "folders" f
       where f.workspace_id = $10 and f.id = $11
         and f.fields = $12::jsonb
         for share of f
      returning created_at, updated_at),
    event as (${oneEvent(13)}),${afterEvents(20)}`;

/** createDeal's read (`create_deal_read`): the pipeline's stages, the currency, the record (trashed or not). */
export const CREATE_DEAL_READ_SQL = `
      select array(select s.id from stages s
                    where s.workspace_id = p.workspace_id and s.pipeline_id = p.id
                    order by s.position) as stage_ids,
             (select w.default_currency from workspaces w where w.id = p.workspace_id) as currency,
             r.workspace_id, r.id, r.folder_id, r.title, r.email, r.phone, r.data, r.owner_id, r.created_at, r.updated_at, r.trashed_at
        from pipelines p
        left join records r on r.workspace_id = p.workspace_id and r.id = $1
       where p.workspace_id = $2 and p.id = $3`;

/**
 * createDeal (`create_deal`): $1–$10 the deal, $11–$16 the stage and record guards, $17–$20
 * the record's link, then one event and the rest.
 */
export const CREATE_DEAL_SQL = `
    with written as (
      insert into "deals" (workspace_id, id, pipeline_id, stage_id, title, amount, currency, close_date, data, record_id)
      select $1, $2, $3, $4, $5,
             $6::numeric, $7, $8::date,
             $9::jsonb, $10
        from stages s
       where s.workspace_id = $11 and s.pipeline_id = $12
         and s.id = $13
         and ($14::text is null or coalesce((
           select r.trashed_at is null from records r
            where r.workspace_id = $15 and r.id = $16
              for share), false))
         for share of s
      returning created_at, updated_at),
    linked as (
      insert into deal_links (workspace_id, deal_id, record_id)
      select $17, $18, $19::text from written where $20::text is not null
      on conflict do nothing
      returning 1
    ),
    event as (${oneEvent(21)}),${afterEvents(28)}`;

/** updateDeal's read: the deal with its linked record, trashed or not. */
export const DEAL_WITH_RECORD_SQL =
  'select "deals"."workspace_id", "deals"."id", "deals"."pipeline_id", "deals"."stage_id", "deals"."title", ' +
  '"deals"."amount", "deals"."currency", "deals"."close_date", "deals"."data", "deals"."record_id", ' +
  '"deals"."created_at", "deals"."updated_at", "records"."workspace_id", "records"."id", "records"."folder_id", ' +
  '"records"."title", "records"."email", "records"."phone", "records"."data", "records"."owner_id", ' +
  '"records"."created_at", "records"."updated_at", "records"."trashed_at" from "deals" left join "records" on ' +
  '("records"."workspace_id" = "deals"."workspace_id" and "records"."id" = "deals"."record_id") ' +
  'where ("deals"."workspace_id" = $1 and "deals"."id" = $2)';

/**
 * updateDeal with a new stage (`move_deal`): $1–$7 the new values, $8–$16 the deal as read,
 * $17–$19 the new stage's guard, then the events and the rest.
 */
export const MOVE_DEAL_SQL = `
    with written as (
      update "deals" set stage_id = $1, title = $2, amount = $3::numeric,
             currency = $4, close_date = $5::date,
             record_id = $6, data = $7::jsonb, updated_at = now()
       where workspace_id = $8 and id = $9
         and stage_id = $10 and title is not distinct from $11
         and amount is not distinct from $12::numeric and currency = $13
         and close_date is not distinct from $14::date
         and record_id is not distinct from $15
         and data = $16::jsonb
         and exists (
           select 1 from "stages"
            where workspace_id = $17 and pipeline_id = $18
              and id = $19
              for share)
      returning created_at, updated_at),
    event as (${manyEvents(20)}),${afterEvents(24)}`;
