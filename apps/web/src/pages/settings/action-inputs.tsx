import { useId } from 'react';
import { Field, FieldNotes, SelectField } from '../../lib/components.tsx';
import type { Choices } from './action-builder.tsx';
import type { DraftAction } from './action-draft.ts';
import type { FormParam } from './action-forms.ts';
import { TimeZoneField } from './time-zone-field.tsx';

/** The inputs of the action builder's parameters (action-builder.tsx). */

/** One simple parameter's input: text, a choice, a checkbox or key/value rows. */
export function ParamInput({
  param,
  draft,
  choices,
  error,
  onChange,
}: {
  param: FormParam;
  draft: DraftAction;
  choices: Choices;
  error: string | undefined;
  onChange: (value: string | [string, string][]) => void;
}) {
  const value = draft.values[param.name];
  const label = `${param.label}${param.required ? '' : ' (optional)'}`;
  const text = typeof value === 'string' ? value : '';
  const pick = (options: { value: string; label: string }[]) => (
    <SelectField
      label={label}
      value={text}
      error={error}
      onChange={(e) => onChange(e.target.value)}
      options={[{ value: '', label: '—' }, ...options]}
    />
  );
  switch (param.kind) {
    case 'folder':
      return pick(choices.folders.map((f) => ({ value: f.id, label: f.name })));
    case 'pipeline':
      return pick(choices.pipelines.map((p) => ({ value: p.id, label: p.name })));
    case 'stage': {
      const pipelineId = typeof draft.values.pipelineId === 'string' ? draft.values.pipelineId : '';
      return pick(
        choices.pipelines
          .filter((p) => draft.type !== 'CREATE_DEAL' || !pipelineId || p.id === pipelineId)
          .flatMap((p) => p.stages.map((s) => ({ value: s.id, label: `${p.name}: ${s.name}` }))),
      );
    }
    case 'member':
      return pick(choices.members.map((m) => ({ value: m.id, label: m.name })));
    case 'select':
      return pick(
        (param.options ?? []).map((o) => ({ value: o, label: o.toLowerCase().replace(/_/g, ' ') })),
      );
    case 'check':
      return (
        <label className="check">
          <input
            type="checkbox"
            checked={text === (param.value ?? 'true')}
            onChange={(e) => onChange(e.target.checked ? (param.value ?? 'true') : '')}
          />{' '}
          {param.label}
          {error ? <small className="field-error"> {error}</small> : null}
        </label>
      );
    case 'pairs':
      return (
        <Pairs
          label={label}
          hint={param.hint}
          rows={Array.isArray(value) ? value : []}
          error={error}
          onChange={onChange}
        />
      );
    case 'textarea':
      return <TextArea label={label} hint={param.hint} value={text} error={error} onChange={onChange} />;
    case 'timezone':
      return (
        <TimeZoneField
          label={label}
          {...(param.hint ? { hint: param.hint } : {})}
          value={text}
          error={error}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return (
        <Field
          label={label}
          {...(param.hint ? { hint: param.hint } : {})}
          value={text}
          error={error}
          inputMode={param.kind === 'number' ? 'decimal' : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

/** A FOR_EACH over records: those `POST /records/query` would answer for this body. */
export function RecordsQuery({
  values,
  folders,
  error,
  onChange,
}: {
  values: DraftAction['values'];
  folders: Choices['folders'];
  error: string | undefined;
  onChange: (part: 'folderId' | 'q' | 'filter' | 'sort', value: string) => void;
}) {
  const text = (part: string) => {
    const value = values[`records.${part}`];
    return typeof value === 'string' ? value : '';
  };
  return (
    <fieldset className="records-query">
      <legend>Records</legend>
      <div className="grid">
        <SelectField
          label="Records of the folder"
          value={text('folderId')}
          onChange={(e) => onChange('folderId', e.target.value)}
          options={[{ value: '', label: '—' }, ...folders.map((f) => ({ value: f.id, label: f.name }))]}
        />
        <Field
          label="Search (optional)"
          hint="As the records list's search"
          value={text('q')}
          onChange={(e) => onChange('q', e.target.value)}
        />
      </div>
      <div className="grid">
        <TextArea
          label="Filter (optional, JSON)"
          hint='As POST /records/query takes it: { "field": "data.lifecycle", "op": "eq", "value": "Lead" }, or { "and": [...] }'
          value={text('filter')}
          error={undefined}
          onChange={(v) => onChange('filter', v)}
        />
        <Field
          label="Sort (optional)"
          hint="createdAt, updatedAt, title or data.<key>; a - before it for descending"
          value={text('sort')}
          onChange={(e) => onChange('sort', e.target.value)}
        />
      </div>
      {error ? <small className="field-error">{error}</small> : null}
    </fieldset>
  );
}

function TextArea({
  label,
  hint,
  value,
  error,
  onChange,
}: {
  label: string;
  hint?: string | undefined;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** Key/value rows for an object parameter (custom fields, headers, a JSON body). */
function Pairs({
  label,
  hint,
  rows,
  error,
  onChange,
}: {
  label: string;
  hint?: string | undefined;
  rows: [string, string][];
  error: string | undefined;
  onChange: (rows: [string, string][]) => void;
}) {
  const shown = rows.length > 0 ? rows : [['', ''] as [string, string]];
  const set = (index: number, at: 0 | 1, value: string) =>
    onChange(
      shown.map((row, i) =>
        i === index ? ((at === 0 ? [value, row[1]] : [row[0], value]) as [string, string]) : row,
      ),
    );
  return (
    <fieldset className="pairs">
      <legend>{label}</legend>
      {hint ? <small className="hint">{hint}</small> : null}
      {shown.map((row, index) => (
        <div className="row" key={index}>
          <Field
            label={`${label}: key ${index + 1}`}
            value={row[0]}
            onChange={(e) => set(index, 0, e.target.value)}
          />
          <Field
            label={`${label}: value ${index + 1}`}
            value={row[1]}
            onChange={(e) => set(index, 1, e.target.value)}
          />
        </div>
      ))}
      <button type="button" onClick={() => onChange([...shown, ['', '']])}>
        Add a row
      </button>
      {error ? <small className="field-error">{error}</small> : null}
    </fieldset>
  );
}
