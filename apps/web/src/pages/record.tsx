import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { announce } from '../lib/announcer.tsx';
import {
  Field,
  formatInstant,
  ListView,
  Loading,
  PageHeader,
  ProblemMessage,
  SelectField,
  usePager,
} from '../lib/components.tsx';
import { optionsFromText, valueText } from '../lib/format.ts';
import { api, type Inputs, type Outputs, problemOf, queryClient } from '../lib/query.ts';
import { Link } from '../lib/router.tsx';
import { FieldHistory, madeBy } from './record/history.tsx';
import { RecordDeals, RelatedRecords } from './record/related.tsx';
import { TaskList } from './tasks.tsx';

type RecordData = Outputs['records']['get']['data'];
type FolderField = Outputs['folders']['get']['data']['fields'][number];
type TimelineEntry = Outputs['records']['timeline']['data'][number];
type Direction = NonNullable<Inputs['calls']['create']['direction']>;
type Outcome = NonNullable<Inputs['calls']['create']['outcome']>;

/** Entries the timeline shows at first, and adds with each "Show more". */
const TIMELINE_PAGE = 20;

/**
 * What a change on this page may have added to the record's timeline: the record, its
 * timeline and the list the change was made in are read again.
 */
function invalidateRecord() {
  return queryClient.invalidateQueries(api.records.pathFilter());
}

/** A comment, a call or a task leaves the record as it was: only its history is read again. */
function invalidateTimeline() {
  return queryClient.invalidateQueries(api.records.timeline.pathFilter());
}

export function RecordPage({ id }: { id: string }) {
  const record = useQuery(api.records.get.queryOptions({ id }));
  const r = record.data?.data;
  const folder = useQuery({
    ...api.folders.get.queryOptions({ id: r?.folderId ?? '' }),
    enabled: Boolean(r?.folderId),
  });
  const fields = folder.data?.data.fields;
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const folderName = (fid: string) => folders.data?.data.find((f) => f.id === fid)?.name ?? '';
  const relations = (fields ?? []).flatMap((f) => (f.relation ? [{ field: f, relation: f.relation }] : []));
  return (
    <>
      <p>
        <Link to="/">← Records</Link>
      </p>
      <ProblemMessage problem={problemOf(record.error ?? folder.error)} />
      {!r ? (
        record.isPending ? (
          <Loading what="the record" />
        ) : null
      ) : (
        <>
          <PageHeader title={r.title} />
          <p className="hint">
            {folder.data?.data.name ?? ''} · created {formatInstant(r.createdAt)} · updated{' '}
            {formatInstant(r.updatedAt)}
          </p>
          {fields ? (
            <RecordFields key={r.updatedAt} record={r} fields={fields} />
          ) : (
            <Loading what="the fields" />
          )}
          {relations.length > 0 ? (
            <section aria-labelledby="related-heading" className="card">
              <h2 id="related-heading">Related records</h2>
              {relations.map(({ field, relation }) => (
                <RelatedRecords
                  key={field.key}
                  recordId={id}
                  recordTitle={r.title}
                  field={field}
                  relation={relation}
                  folderName={folderName(relation.folderId)}
                />
              ))}
            </section>
          ) : null}
          <RecordDeals recordId={id} />
          <div className="columns">
            <Comments recordId={id} />
            <Calls recordId={id} />
          </div>
          <section aria-labelledby="tasks-heading">
            <h2 id="tasks-heading">Tasks</h2>
            <TaskList filter={{ recordId: id }} recordId={id} />
          </section>
          <Timeline recordId={id} fields={fields ?? []} />
          <RecordHistory recordId={id} fields={fields ?? []} />
        </>
      )}
    </>
  );
}

/**
 * The record's own and custom fields as a form; only what changed is sent (PATCH merges).
 * Relations are not typed in here: the related records below link and unlink them.
 */
function RecordFields({ record, fields: all }: { record: RecordData; fields: FolderField[] }) {
  const fields = all.filter((f) => !f.relation);
  const [title, setTitle] = useState(record.title);
  const [email, setEmail] = useState(record.email ?? '');
  const [phone, setPhone] = useState(record.phone ?? '');
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.key, valueText(record.data[f.key])])),
  );
  const save = useMutation(
    api.records.update.mutationOptions({
      onSuccess: async () => {
        announce('Saved.');
        await invalidateRecord();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const data: Record<string, unknown> = {};
    for (const f of fields) {
      const before = valueText(record.data[f.key]);
      const now = values[f.key] ?? '';
      if (now !== before) data[f.key] = fromInput(f, now);
    }
    save.mutate({
      id: record.id,
      ...(title !== record.title ? { title } : {}),
      ...(email !== (record.email ?? '') ? { email: email || null } : {}),
      ...(phone !== (record.phone ?? '') ? { phone: phone || null } : {}),
      ...(Object.keys(data).length > 0 ? { data } : {}),
    });
  };
  const problem = problemOf(save.error);
  const errors = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Fields" noValidate>
      <h2>Fields</h2>
      <ProblemMessage
        problem={problem}
        paths={['title', 'email', 'phone', ...fields.map((f) => `data.${f.key}`)]}
      />
      <div className="grid">
        <Field label="Title" value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} />
        <Field
          label="Email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <Field label="Phone" value={phone} onChange={(e) => setPhone(e.target.value)} error={errors.phone} />
        {fields.map((f) => (
          <CustomField
            key={f.key}
            field={f}
            value={values[f.key] ?? ''}
            error={errors[`data.${f.key}`]}
            onChange={(value) => setValues((v) => ({ ...v, [f.key]: value }))}
          />
        ))}
      </div>
      <button type="submit" disabled={save.isPending}>
        Save fields
      </button>
    </form>
  );
}

function CustomField({
  field,
  value,
  error,
  onChange,
}: {
  field: FolderField;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  if (field.type === 'SELECT' || field.type === 'BOOLEAN') {
    const options =
      field.type === 'BOOLEAN'
        ? [
            { value: 'true', label: 'yes' },
            { value: 'false', label: 'no' },
          ]
        : (field.options ?? []).map((o) => ({ value: o, label: o }));
    return (
      <SelectField
        label={field.label}
        value={value}
        error={error}
        onChange={(e) => onChange(e.target.value)}
        options={[{ value: '', label: '—' }, ...options]}
      />
    );
  }
  const type =
    field.type === 'NUMBER'
      ? 'number'
      : field.type === 'DATE'
        ? 'date'
        : field.type === 'EMAIL'
          ? 'email'
          : field.type === 'URL'
            ? 'url'
            : 'text';
  return (
    <Field
      label={field.label}
      type={type}
      value={value}
      error={error}
      hint={
        field.type === 'MULTI_SELECT' ? `Comma-separated: ${(field.options ?? []).join(', ')}` : undefined
      }
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The form's text back to the field's JSON type; an emptied field is removed (null). */
function fromInput(field: FolderField, text: string): unknown {
  if (text.trim() === '') return null;
  if (field.type === 'NUMBER') return Number(text);
  if (field.type === 'BOOLEAN') return text === 'true';
  if (field.type === 'MULTI_SELECT') return optionsFromText(text);
  return text;
}

function Comments({ recordId }: { recordId: string }) {
  const pager = usePager(recordId);
  const comments = useQuery({
    ...api.comments.list.queryOptions({ id: recordId, pageSize: 50, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
  const [text, setText] = useState('');
  const add = useMutation(
    api.comments.create.mutationOptions({
      onSuccess: async () => {
        setText('');
        announce('Comment added.');
        await Promise.all([
          queryClient.invalidateQueries(api.comments.list.pathFilter()),
          invalidateTimeline(),
        ]);
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ id: recordId, text });
  };
  const problem = problemOf(add.error);
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <ListView query={comments} what="comments" empty="No comments yet." pager={pager}>
        {(rows) => (
          <ul className="feed">
            {rows.map((c) => (
              <li key={c.id}>
                <p>{c.text}</p>
                <small>
                  {c.author} · {formatInstant(c.createdAt)}
                </small>
              </li>
            ))}
          </ul>
        )}
      </ListView>
      <form onSubmit={onSubmit} aria-label="Add a comment" noValidate>
        <ProblemMessage problem={problem} paths={['text']} />
        <Field
          label="Comment"
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={problem?.fields.text}
        />
        <button type="submit" disabled={add.isPending}>
          Add comment
        </button>
      </form>
    </section>
  );
}

const DIRECTIONS: Direction[] = ['OUTBOUND', 'INBOUND'];
const OUTCOMES: Outcome[] = ['CONNECTED', 'NO_ANSWER', 'BUSY', 'VOICEMAIL', 'FAILED'];

const words = (value: string) => value.toLowerCase().replace('_', ' ');

function Calls({ recordId }: { recordId: string }) {
  const pager = usePager(recordId);
  const calls = useQuery({
    ...api.calls.list.queryOptions({ id: recordId, pageSize: 50, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
  const [direction, setDirection] = useState<Direction>('OUTBOUND');
  const [outcome, setOutcome] = useState<Outcome>('CONNECTED');
  const [minutes, setMinutes] = useState('');
  const [notes, setNotes] = useState('');
  const log = useMutation(
    api.calls.create.mutationOptions({
      onSuccess: async () => {
        setMinutes('');
        setNotes('');
        announce('Call logged.');
        await Promise.all([queryClient.invalidateQueries(api.calls.list.pathFilter()), invalidateTimeline()]);
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    log.mutate({
      id: recordId,
      direction,
      outcome,
      ...(minutes ? { duration: Math.round(Number(minutes) * 60) } : {}),
      ...(notes ? { notes } : {}),
    });
  };
  const problem = problemOf(log.error);
  const errors = problem?.fields ?? {};
  return (
    <section aria-labelledby="calls-heading">
      <h2 id="calls-heading">Calls</h2>
      <ListView query={calls} what="calls" empty="No calls logged." pager={pager}>
        {(rows) => (
          <ul className="feed">
            {rows.map((c) => (
              <li key={c.id}>
                <p>
                  {words(c.direction)} · {words(c.outcome)}
                  {c.duration ? ` · ${callMinutes(c.duration)} min` : ''}
                </p>
                {c.notes ? <p>{c.notes}</p> : null}
                <small>{formatInstant(c.calledAt)}</small>
              </li>
            ))}
          </ul>
        )}
      </ListView>
      <form onSubmit={onSubmit} aria-label="Log a call" noValidate>
        <ProblemMessage problem={problem} paths={['direction', 'outcome', 'duration', 'notes']} />
        <div className="row">
          <SelectField
            label="Direction"
            value={direction}
            onChange={(e) => setDirection(e.target.value as Direction)}
            options={DIRECTIONS.map((d) => ({ value: d, label: words(d) }))}
          />
          <SelectField
            label="Outcome"
            value={outcome}
            onChange={(e) => setOutcome(e.target.value as Outcome)}
            options={OUTCOMES.map((o) => ({ value: o, label: words(o) }))}
          />
          <Field
            label="Minutes"
            type="number"
            min="0"
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
            error={errors.duration}
          />
        </div>
        <Field label="Notes" value={notes} onChange={(e) => setNotes(e.target.value)} error={errors.notes} />
        <button type="submit" disabled={log.isPending}>
          Log call
        </button>
      </form>
    </section>
  );
}

/**
 * The record's history, newest first (GET /api/v1/records/{id}/timeline): each entry in words,
 * with "Show more" for older ones. A comment, call, task or change made on this page reads it
 * again (every such change invalidates the records queries); what others did meanwhile (an
 * automation the change triggered, a colleague) shows on "Refresh", which reads the record's
 * fields again too.
 */
function Timeline({ recordId, fields }: { recordId: string; fields: FolderField[] }) {
  const timeline = useInfiniteQuery({
    ...api.records.timeline.infiniteQueryOptions(
      { id: recordId, pageSize: TIMELINE_PAGE },
      { getNextPageParam: (page) => page.meta.nextCursor ?? undefined },
    ),
    // While an automation run shown is still going, its outcome is read every few seconds.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.data.some((e) => e.run && (e.run.status === 'QUEUED' || e.run.status === 'RUNNING')),
      )
        ? 2_000
        : false,
  });
  const { label, value } = useFieldWords(fields);
  const shown = timeline.data ? { data: timeline.data.pages.flatMap((page) => page.data) } : undefined;
  return (
    <section aria-labelledby="timeline-heading" className="timeline">
      <header className="section-header">
        <h2 id="timeline-heading">Timeline</h2>
        <button type="button" onClick={() => invalidateRecord()} disabled={timeline.isFetching}>
          Refresh
        </button>
      </header>
      <ListView
        query={{ data: shown, error: timeline.error, isPending: timeline.isPending }}
        what="the timeline"
        empty="Nothing has happened yet."
      >
        {(rows) => (
          <ol className="feed" aria-label="Timeline, newest first">
            {rows.map((entry) => (
              <li key={`${entry.kind}:${entry.id}`} data-kind={entry.kind}>
                {describe(entry, label, value)}
                <small>
                  {entry.by ? `by ${madeBy(entry.by)} · ` : ''}
                  <time dateTime={entry.at}>{formatInstant(entry.at)}</time>
                </small>
              </li>
            ))}
          </ol>
        )}
      </ListView>
      {timeline.hasNextPage ? (
        <button type="button" onClick={() => timeline.fetchNextPage()} disabled={timeline.isFetchingNextPage}>
          Show more
        </button>
      ) : null}
    </section>
  );
}

/** The field history of the record, its fields named and its values shown as the timeline shows them. */
function RecordHistory({ recordId, fields }: { recordId: string; fields: FolderField[] }) {
  const { label, value } = useFieldWords(fields);
  return <FieldHistory recordId={recordId} label={label} value={value} />;
}

/**
 * A field's name and values in words, for the timeline and the field history: the folder's
 * labels, an owner by name, and a relation's value (a record's id) as that record's title
 * (read once, cached).
 */
function useFieldWords(fields: FolderField[]) {
  const members = useQuery(api.workspace.members.queryOptions({ pageSize: 200 }));
  const names = new Map(members.data?.data.map((m) => [m.id, m.name]));
  const labels = new Map<string, string>([
    ['title', 'Title'],
    ['email', 'Email'],
    ['phone', 'Phone'],
    ['ownerId', 'Owner'],
    ...fields.map((f): [string, string] => [`data.${f.key}`, f.label]),
  ]);
  const relations = new Set(fields.flatMap((f) => (f.relation ? [`data.${f.key}`] : [])));
  const label = (field: string) => labels.get(field) ?? field;
  const value = (field: string, v: unknown): ReactNode =>
    field === 'ownerId' && typeof v === 'string' ? (
      (names.get(v) ?? v)
    ) : relations.has(field) && typeof v === 'string' ? (
      <RecordName id={v} />
    ) : (
      showValue(v)
    );
  return { label, value };
}

/** One timeline entry in words: "Email changed from a@x to b@x", "Automation “X” ran: succeeded". */
function describe(
  entry: TimelineEntry,
  label: (field: string) => string,
  value: (field: string, v: unknown) => ReactNode,
): ReactNode {
  switch (entry.kind) {
    case 'record.created':
      return <p>Record created</p>;
    case 'record.updated':
      return (entry.changes ?? []).map((c) => (
        <p key={c.field}>
          {c.from === null ? (
            <>
              {label(c.field)} set to {value(c.field, c.to)}
            </>
          ) : c.to === null ? (
            <>
              {label(c.field)} cleared (was {value(c.field, c.from)})
            </>
          ) : (
            <>
              {label(c.field)} changed from {value(c.field, c.from)} to {value(c.field, c.to)}
            </>
          )}
        </p>
      ));
    case 'record.trashed':
      return <p>Moved to Trash</p>;
    case 'record.restored':
      return <p>Restored from Trash</p>;
    case 'comment.added':
      return (
        <>
          <p>{entry.actor?.name ?? 'Someone'} commented</p>
          <blockquote>{entry.comment?.text}</blockquote>
        </>
      );
    case 'call.logged': {
      const call = entry.call;
      if (!call) return null;
      return (
        <>
          <p>
            {entry.actor ? `${entry.actor.name} logged` : 'Logged'} an {words(call.direction)} call:{' '}
            {words(call.outcome)}
            {call.duration ? `, ${callMinutes(call.duration)} min` : ''}
          </p>
          {call.notes ? <blockquote>{call.notes}</blockquote> : null}
        </>
      );
    }
    case 'task.created':
      return <p>Task “{entry.task?.title}” created</p>;
    case 'task.completed':
      return <p>Task “{entry.task?.title}” completed</p>;
    case 'deal.stage_changed': {
      const deal = entry.deal;
      if (!deal) return null;
      return (
        <p>
          {deal.title ? `Deal “${deal.title}”: stage` : 'Stage'} moved from{' '}
          {deal.from.name ?? 'a removed stage'} to {deal.to.name ?? 'a removed stage'}
        </p>
      );
    }
    case 'record.linked':
    case 'record.unlinked': {
      const link = entry.link;
      if (!link) return null;
      const other = link.title ? `“${link.title}”` : 'a record since removed';
      const through = link.field ? ` (${label(`data.${link.field}`)})` : '';
      return (
        <p>
          {entry.kind === 'record.linked' ? 'Linked to' : 'Unlinked from'}{' '}
          <Link to={`/records/${link.recordId}`}>{other}</Link>
          {through}
          {link.label ? `, as ${link.label}` : ''}
        </p>
      );
    }
    case 'workflow.run': {
      const run = entry.run;
      if (!run) return null;
      const status =
        run.status === 'QUEUED'
          ? 'is queued'
          : run.status === 'RUNNING'
            ? 'is running'
            : `ran: ${words(run.status)}`;
      return (
        <>
          <p>
            Automation “{run.workflowName}” {status}
          </p>
          {run.error ? <p className="hint">{run.error}</p> : null}
        </>
      );
    }
  }
}

/** A linked record by its title, a link to it; its id while it is read, or when it is in Trash. */
function RecordName({ id }: { id: string }) {
  const record = useQuery({ ...api.records.get.queryOptions({ id }), retry: false });
  const title = record.data?.data.title;
  return title === undefined ? id : <Link to={`/records/${id}`}>{title}</Link>;
}

/** A field's value as text: nothing is "nothing", lists are joined, yes/no for booleans. */
function showValue(v: unknown): string {
  if (v === null || v === undefined || v === '') return 'nothing';
  if (Array.isArray(v)) return v.length === 0 ? 'nothing' : v.join(', ');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A call's length in whole minutes as the page writes it: a call shorter than a minute is 1 min, not 0. */
function callMinutes(seconds: number): number {
  return Math.max(1, Math.round(seconds / 60));
}
