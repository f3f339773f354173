import { type FormEvent, useState } from 'react';
import { announce } from '../lib/announcer.tsx';
import {
  Field,
  formatInstant,
  Loading,
  PageHeader,
  ProblemMessage,
  SelectField,
} from '../lib/components.tsx';
import { Link } from '../lib/router.tsx';
import { trpc } from '../lib/trpc.ts';
import { useData, useSubmit } from '../lib/use-data.ts';
import { TaskList } from './tasks.tsx';

interface FolderField {
  key: string;
  label: string;
  type: string;
  options?: string[] | undefined;
}

export function RecordPage({ id }: { id: string }) {
  const record = useData(() => trpc.records.get.query({ id }), [id]);
  const folderId = record.data?.data.folderId;
  const folder = useData(
    () => (folderId ? trpc.folders.get.query({ id: folderId }) : Promise.resolve(undefined)),
    [folderId],
  );
  const r = record.data?.data;
  return (
    <>
      <p>
        <Link to="/">← Records</Link>
      </p>
      <ProblemMessage problem={record.problem} />
      {!r ? (
        record.problem ? null : (
          <Loading what="the record" />
        )
      ) : (
        <>
          <PageHeader title={r.title} />
          <p className="hint">
            {folder.data?.data.name ?? ''} · created {formatInstant(r.createdAt)} · updated{' '}
            {formatInstant(r.updatedAt)}
          </p>
          {folder.data ? (
            <RecordFields
              key={r.updatedAt}
              record={r}
              fields={folder.data.data.fields}
              onSaved={record.reload}
            />
          ) : (
            <Loading what="the fields" />
          )}
          <div className="columns">
            <Comments recordId={id} />
            <Calls recordId={id} />
          </div>
          <section aria-labelledby="tasks-heading">
            <h2 id="tasks-heading">Tasks</h2>
            <TaskList filter={{ recordId: id }} recordId={id} />
          </section>
        </>
      )}
    </>
  );
}

type RecordData = {
  id: string;
  title: string;
  email: string | null;
  phone: string | null;
  data: Record<string, unknown>;
};

/** The record's own and custom fields as a form; only what changed is sent (PATCH merges). */
function RecordFields({
  record,
  fields,
  onSaved,
}: {
  record: RecordData;
  fields: FolderField[];
  onSaved: () => void;
}) {
  const [title, setTitle] = useState(record.title);
  const [email, setEmail] = useState(record.email ?? '');
  const [phone, setPhone] = useState(record.phone ?? '');
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.key, toInput(f, record.data[f.key])])),
  );
  const submit = useSubmit(() => {
    const data: Record<string, unknown> = {};
    for (const f of fields) {
      const before = toInput(f, record.data[f.key]);
      const now = values[f.key] ?? '';
      if (now !== before) data[f.key] = fromInput(f, now);
    }
    return trpc.records.update.mutate({
      id: record.id,
      ...(title !== record.title ? { title } : {}),
      ...(email !== (record.email ?? '') ? { email: email || null } : {}),
      ...(phone !== (record.phone ?? '') ? { phone: phone || null } : {}),
      ...(Object.keys(data).length > 0 ? { data } : {}),
    });
  });
  const [saved, setSaved] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await submit.run()) {
      setSaved(true);
      announce('Saved.');
      onSaved();
    }
  };
  const errors = submit.problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Fields" noValidate>
      <h2>Fields</h2>
      <ProblemMessage
        problem={submit.problem}
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
      <button type="submit" disabled={submit.busy}>
        Save fields
      </button>
      <span className="hint">{saved ? ' Saved.' : ''}</span>
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

function toInput(field: FolderField, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field.type === 'MULTI_SELECT' && Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** The form's text back to the field's JSON type; an emptied field is removed (null). */
function fromInput(field: FolderField, text: string): unknown {
  if (text.trim() === '') return null;
  if (field.type === 'NUMBER') return Number(text);
  if (field.type === 'BOOLEAN') return text === 'true';
  if (field.type === 'MULTI_SELECT') {
    return text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  return text;
}

function Comments({ recordId }: { recordId: string }) {
  const comments = useData(() => trpc.comments.list.query({ id: recordId, pageSize: 200 }), [recordId]);
  const [text, setText] = useState('');
  const submit = useSubmit(() => trpc.comments.create.mutate({ id: recordId, text }));
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await submit.run()) {
      setText('');
      comments.reload();
    }
  };
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <ProblemMessage problem={comments.problem} />
      {comments.data ? (
        <ul className="feed">
          {comments.data.data.length === 0 ? <li className="hint">No comments yet.</li> : null}
          {comments.data.data.map((c) => (
            <li key={c.id}>
              <p>{c.text}</p>
              <small>
                {c.author} · {formatInstant(c.createdAt)}
              </small>
            </li>
          ))}
        </ul>
      ) : (
        <Loading what="comments" />
      )}
      <form onSubmit={onSubmit} aria-label="Add a comment" noValidate>
        <ProblemMessage problem={submit.problem} paths={['text']} />
        <Field
          label="Comment"
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={submit.problem?.fields.text}
        />
        <button type="submit" disabled={submit.busy}>
          Add comment
        </button>
      </form>
    </section>
  );
}

const DIRECTIONS = ['OUTBOUND', 'INBOUND'];
const OUTCOMES = ['CONNECTED', 'NO_ANSWER', 'BUSY', 'VOICEMAIL', 'FAILED'];

function Calls({ recordId }: { recordId: string }) {
  const calls = useData(() => trpc.calls.list.query({ id: recordId, pageSize: 200 }), [recordId]);
  const [direction, setDirection] = useState('OUTBOUND');
  const [outcome, setOutcome] = useState('CONNECTED');
  const [minutes, setMinutes] = useState('');
  const [notes, setNotes] = useState('');
  const submit = useSubmit(() =>
    trpc.calls.create.mutate({
      id: recordId,
      direction: direction as 'OUTBOUND',
      outcome: outcome as 'CONNECTED',
      ...(minutes ? { duration: Math.round(Number(minutes) * 60) } : {}),
      ...(notes ? { notes } : {}),
    }),
  );
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await submit.run()) {
      setMinutes('');
      setNotes('');
      calls.reload();
    }
  };
  const errors = submit.problem?.fields ?? {};
  return (
    <section aria-labelledby="calls-heading">
      <h2 id="calls-heading">Calls</h2>
      <ProblemMessage problem={calls.problem} />
      {calls.data ? (
        <ul className="feed">
          {calls.data.data.length === 0 ? <li className="hint">No calls logged.</li> : null}
          {calls.data.data.map((c) => (
            <li key={c.id}>
              <p>
                {c.direction.toLowerCase()} · {c.outcome.toLowerCase().replace('_', ' ')}
                {c.duration ? ` · ${Math.round(c.duration / 60)} min` : ''}
              </p>
              {c.notes ? <p>{c.notes}</p> : null}
              <small>{formatInstant(c.calledAt)}</small>
            </li>
          ))}
        </ul>
      ) : (
        <Loading what="calls" />
      )}
      <form onSubmit={onSubmit} aria-label="Log a call" noValidate>
        <ProblemMessage problem={submit.problem} paths={['direction', 'outcome', 'duration', 'notes']} />
        <div className="row">
          <SelectField
            label="Direction"
            value={direction}
            onChange={(e) => setDirection(e.target.value)}
            options={DIRECTIONS.map((d) => ({ value: d, label: d.toLowerCase() }))}
          />
          <SelectField
            label="Outcome"
            value={outcome}
            onChange={(e) => setOutcome(e.target.value)}
            options={OUTCOMES.map((o) => ({ value: o, label: o.toLowerCase().replace('_', ' ') }))}
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
        <button type="submit" disabled={submit.busy}>
          Log call
        </button>
      </form>
    </section>
  );
}
