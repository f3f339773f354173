import type { Executor } from '@crm/db';
import { type SQL, sql } from 'drizzle-orm';
import { loadRecord } from '../records/load-record.ts';
import type { Actor } from '../shared/actor.ts';
import { encodeCursor } from '../shared/cursor.ts';
import { pageOf, resolvePaging } from '../shared/paging.ts';
import { toInstant } from '../shared/schemas.ts';
import type { FindTimelineInput, TimelineEntryOutput, TimelineKind, TimelineOutput } from './schemas.ts';

/** The event kinds a timeline shows; `record.created` comes from the record itself. */
const EVENT_KINDS = [
  'record.updated',
  'record.trashed',
  'record.restored',
  'task.created',
  'task.completed',
  'deal.stage_changed',
  'record.linked',
  'record.unlinked',
] as const;

interface TimelineRow extends Record<string, unknown> {
  id: string;
  at: Date | string;
  kind: TimelineKind;
  detail: Record<string, unknown> | null;
  by: Record<string, unknown> | null;
}

/**
 * A live record's history, newest first (docs/api.md, "Record timeline"): the events written
 * about it (changes, Trash and restore, its tasks created and completed, stage moves of deals
 * linked to it, links made and removed on either side), its comments and calls, the automation runs started for it or that took it
 * as their context record, and its creation. An unknown, other workspace's or trashed record
 * is NOT_FOUND, as for `GET /records/{id}`.
 *
 * One statement: each source reads its own rows of this record through an index in the
 * timeline's order, at most as many as the page needs, and the union is ordered and cut.
 * Keyset paging on (at, id) as the other lists page on (createdAt, id) (docs/api.md, "Paging").
 */
export async function findTimeline(
  db: Executor,
  actor: Actor,
  input: FindTimelineInput,
): Promise<TimelineOutput> {
  const paging = resolvePaging(input);
  const record = await loadRecord(db, actor, input.id);
  const ws = actor.workspaceId;
  const offset = paging.kind === 'offset' ? paging.offset : 0;
  const each = offset + paging.pageSize + 1;
  const after = (at: SQL, id: SQL): SQL =>
    paging.kind === 'cursor'
      ? sql`and (${at} < ${paging.after.createdAt}::timestamptz
              or (${at} = ${paging.after.createdAt}::timestamptz and ${id} < ${paging.after.id}))`
      : sql``;
  const titleOf = (id: SQL) =>
    sql`(select x.title from records x where x.workspace_id = ${ws} and x.id = ${id})`;
  // Who made an event's change, as its payload names it (none on events written before).
  const provenance = sql`case when e.payload ? 'actor' then jsonb_build_object(
      'actor', e.payload->'actor', 'source', e.payload->'source', 'requestId', e.payload->'requestId') end`;
  const stageName = (key: string) =>
    sql`(select s.name from stages s where s.workspace_id = ${ws} and s.id = e.payload->>${key})`;

  const { rows } = await db.execute<TimelineRow>(sql`
    select id, at, kind, detail, by from (
      (select e.id, e.occurred_at as at, e.type as kind,
              case
                when e.type = 'record.updated' then jsonb_build_object(
                  'changedFields', e.payload->'changedFields', 'previous', e.payload->'previous',
                  'record', e.payload->'record')
                when e.type = 'deal.stage_changed' then jsonb_build_object(
                  'dealId', e.payload->'dealId', 'pipelineId', e.payload->'pipelineId',
                  'title', e.payload->'deal'->'title',
                  'fromStageId', e.payload->'fromStageId', 'fromStageName', ${stageName('fromStageId')},
                  'toStageId', e.payload->'toStageId', 'toStageName', ${stageName('toStageId')})
                when e.type in ('task.created', 'task.completed') then jsonb_build_object(
                  'taskId', e.payload->'taskId', 'title', e.payload->'task'->'title')
                when e.type in ('record.linked', 'record.unlinked') then jsonb_build_object(
                  'field', e.payload->'field', 'recordId', e.payload->'to', 'label', e.payload->'label',
                  'title', ${titleOf(sql`e.payload->>'to'`)})
              end as detail,
              ${provenance} as by
         from events e
        where e.workspace_id = ${ws} and e.payload->>'recordId' = ${record.id}
          and e.type in (${sql.join(
            EVENT_KINDS.map((k) => sql`${k}`),
            sql`, `,
          )})
          ${after(sql`e.occurred_at`, sql`e.id`)}
        order by e.occurred_at desc, e.id desc
        limit ${each})
      union all
      (select e.id, e.occurred_at, e.type,
              jsonb_build_object('field', e.payload->'inverseField', 'recordId', e.payload->'from',
                'label', e.payload->'label', 'title', ${titleOf(sql`e.payload->>'from'`)}),
              ${provenance}
         from events e
        where e.workspace_id = ${ws} and e.payload->>'to' = ${record.id}
          and e.type in ('record.linked', 'record.unlinked')
          ${after(sql`e.occurred_at`, sql`e.id`)}
        order by e.occurred_at desc, e.id desc
        limit ${each})
      union all
      (select c.id, c.created_at, 'comment.added',
              jsonb_build_object('text', c.text, 'authorId', c.author_id, 'author', c.author), null
         from comments c
        where c.workspace_id = ${ws} and c.record_id = ${record.id}
          ${after(sql`c.created_at`, sql`c.id`)}
        order by c.created_at desc, c.id desc
        limit ${each})
      union all
      (select l.id, l.created_at, 'call.logged',
              jsonb_build_object('direction', l.direction, 'outcome', l.outcome, 'duration', l.duration,
                'notes', l.notes, 'calledAt', l.called_at, 'authorId', l.author_id,
                'author', (select u.name from users u where u.id = l.author_id)), null
         from call_logs l
        where l.workspace_id = ${ws} and l.record_id = ${record.id}
          ${after(sql`l.created_at`, sql`l.id`)}
        order by l.created_at desc, l.id desc
        limit ${each})
      union all
      (select r.id, r.created_at, 'workflow.run',
              jsonb_build_object('workflowId', r.workflow_id, 'status', r.status, 'error', r.error,
                'workflowName', (select w.name from workflows w
                                  where w.workspace_id = ${ws} and w.id = r.workflow_id)), null
         from workflow_runs r
        where r.workspace_id = ${ws} and (r.record_id = ${record.id} or r.context_record_id = ${record.id})
          ${after(sql`r.created_at`, sql`r.id`)}
        order by r.created_at desc, r.id desc
        limit ${each})
      union all
      (select rec.id, rec.created_at, 'record.created', null, null
         from records rec
        where rec.workspace_id = ${ws} and rec.id = ${record.id}
          ${after(sql`rec.created_at`, sql`rec.id`)})
    ) entries
    order by at desc, id desc
    limit ${paging.pageSize + 1} offset ${offset}`);

  return pageOf(rows, paging, toEntry, (row) =>
    encodeCursor({ createdAt: toInstant(row.at) as string, id: row.id }),
  );
}

const empty = {
  actor: null,
  by: null,
  changes: null,
  comment: null,
  call: null,
  task: null,
  deal: null,
  run: null,
  link: null,
} satisfies Partial<TimelineEntryOutput>;

function toEntry(row: TimelineRow): TimelineEntryOutput {
  const base = {
    id: row.id,
    at: toInstant(row.at) as string,
    kind: row.kind,
    ...empty,
    by: (row.by ?? null) as TimelineEntryOutput['by'],
  };
  const d = row.detail ?? {};
  switch (row.kind) {
    case 'record.updated':
      return { ...base, changes: changesOf(d) };
    case 'comment.added':
      return {
        ...base,
        actor: { userId: str(d.authorId), name: String(d.author) },
        comment: { id: row.id, text: String(d.text) },
      };
    case 'call.logged':
      return {
        ...base,
        actor:
          d.author === null || d.author === undefined
            ? null
            : { userId: str(d.authorId), name: String(d.author) },
        call: {
          id: row.id,
          direction: d.direction as NonNullable<TimelineEntryOutput['call']>['direction'],
          outcome: d.outcome as NonNullable<TimelineEntryOutput['call']>['outcome'],
          duration: typeof d.duration === 'number' ? d.duration : null,
          notes: str(d.notes),
          calledAt: toInstant(String(d.calledAt)) as string,
        },
      };
    case 'task.created':
    case 'task.completed':
      return { ...base, task: { id: String(d.taskId), title: String(d.title ?? '') } };
    case 'deal.stage_changed':
      return {
        ...base,
        deal: {
          id: String(d.dealId),
          title: str(d.title),
          pipelineId: String(d.pipelineId),
          from: { id: String(d.fromStageId), name: str(d.fromStageName) },
          to: { id: String(d.toStageId), name: str(d.toStageName) },
        },
      };
    case 'record.linked':
    case 'record.unlinked':
      return {
        ...base,
        link: { field: str(d.field), recordId: String(d.recordId), title: str(d.title), label: str(d.label) },
      };
    case 'workflow.run':
      return {
        ...base,
        run: {
          id: row.id,
          workflowId: String(d.workflowId),
          workflowName: String(d.workflowName ?? ''),
          status: d.status as NonNullable<TimelineEntryOutput['run']>['status'],
          error: str(d.error),
        },
      };
    default:
      return base;
  }
}

/**
 * Each changed field of a `record.updated` event, from its `previous` value to the value in
 * the event's record snapshot (docs/webhooks.md, "Payload"): a field that has no value is null.
 */
function changesOf(d: Record<string, unknown>): NonNullable<TimelineEntryOutput['changes']> {
  const fields = Array.isArray(d.changedFields) ? (d.changedFields as string[]) : [];
  const previous = (d.previous ?? {}) as Record<string, unknown>;
  const record = (d.record ?? {}) as Record<string, unknown>;
  const data = (record.data ?? {}) as Record<string, unknown>;
  return fields.map((field) => ({
    field,
    from: previous[field] ?? null,
    to: (field.startsWith('data.') ? data[field.slice(5)] : record[field]) ?? null,
  }));
}

function str(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
