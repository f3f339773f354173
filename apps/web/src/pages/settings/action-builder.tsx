import {
  type ActionParameter,
  type ActionType,
  actionParameters,
  actionTypes,
  conditionOperators,
  httpMethods,
  taskPriorities,
  taskTypes,
} from '@crm/constants';
import { useId } from 'react';
import { Field, FieldNotes, SelectField } from '../../lib/components.tsx';
import type { Outputs } from '../../lib/query.ts';

/**
 * Builds a workflow's actions with forms: one descriptor per parameter of each action type
 * (docs/workflows.md, "Actions"), so nobody types JSON. String parameters may hold `{{ … }}` or
 * `[[ … ]]` templates (docs/workflows.md, "Templates").
 */

const LABELS: Record<ActionType, string> = {
  CREATE_RECORD: 'Create a record',
  UPDATE_RECORD: 'Update the record',
  ASSIGN_OWNER: 'Assign an owner',
  MOVE_DEAL_STAGE: 'Move a deal to a stage',
  CREATE_DEAL: 'Create a deal',
  CREATE_TASK: 'Create a task',
  ADD_COMMENT: 'Add a comment',
  LINK_RECORDS: 'Link to another record',
  HTTP_REQUEST: 'Call a URL (HTTP request)',
  CONDITION: 'Continue only if…',
};

type Kind =
  | 'text'
  | 'textarea'
  | 'number'
  | 'select'
  | 'folder'
  | 'pipeline'
  | 'stage'
  | 'member'
  | 'pairs'
  | 'check';

/** How the form shows one parameter; whether it is required comes from `actionParameters`. */
interface Param<T extends ActionType = ActionType> {
  name: ActionParameter<T>;
  label: string;
  kind: Kind;
  hint?: string;
  options?: readonly string[];
  /** For `check`: the value sent when ticked. */
  value?: string;
}

const TEMPLATE = 'May use templates such as {{ trigger.body.email }} or [[ trigger.body.email ]]';

/** The parameters each form offers: names are checked against `actionParameters`. */
const FORMS: { [T in ActionType]: Param<T>[] } = {
  CREATE_RECORD: [
    { name: 'folderId', label: 'Folder', kind: 'folder' },
    { name: 'title', label: 'Title', kind: 'text', hint: TEMPLATE },
    { name: 'email', label: 'Email', kind: 'text' },
    { name: 'phone', label: 'Phone', kind: 'text' },
    {
      name: 'upsertBy',
      label: 'Update the record with the same email instead of adding one',
      kind: 'check',
      value: 'email',
    },
    { name: 'data', label: 'Custom fields', kind: 'pairs', hint: 'Field key and value' },
  ],
  UPDATE_RECORD: [
    { name: 'title', label: 'Title', kind: 'text', hint: TEMPLATE },
    { name: 'email', label: 'Email', kind: 'text' },
    { name: 'phone', label: 'Phone', kind: 'text' },
    { name: 'data', label: 'Custom fields', kind: 'pairs', hint: 'Field key and value' },
  ],
  ASSIGN_OWNER: [{ name: 'ownerId', label: 'Owner', kind: 'member' }],
  MOVE_DEAL_STAGE: [
    {
      name: 'dealId',
      label: 'Deal id',
      kind: 'text',
      hint: 'e.g. {{ steps.1.output.id }} or [[ steps.1.output.id ]]',
    },
    { name: 'stageId', label: 'Stage', kind: 'stage' },
  ],
  CREATE_DEAL: [
    { name: 'pipelineId', label: 'Pipeline', kind: 'pipeline' },
    { name: 'stageId', label: 'Stage (default: the first)', kind: 'stage' },
    { name: 'title', label: 'Title', kind: 'text', hint: TEMPLATE },
    { name: 'amount', label: 'Amount', kind: 'number', hint: 'A number or a template' },
  ],
  CREATE_TASK: [
    { name: 'title', label: 'Title', kind: 'text', hint: TEMPLATE },
    { name: 'dueInDays', label: 'Due in days', kind: 'number' },
    { name: 'assigneeId', label: 'Assignee', kind: 'member' },
    { name: 'priority', label: 'Priority', kind: 'select', options: taskPriorities },
    { name: 'taskType', label: 'Type', kind: 'select', options: taskTypes },
  ],
  ADD_COMMENT: [{ name: 'text', label: 'Comment', kind: 'textarea', hint: TEMPLATE }],
  LINK_RECORDS: [
    { name: 'field', label: 'Relation field (key)', kind: 'text', hint: 'e.g. company' },
    { name: 'to', label: 'Record to link', kind: 'text', hint: TEMPLATE },
    { name: 'by', label: 'The record is named by', kind: 'select', options: ['id', 'email', 'title'] },
    { name: 'label', label: 'Link label', kind: 'text' },
  ],
  HTTP_REQUEST: [
    { name: 'method', label: 'Method', kind: 'select', options: httpMethods },
    { name: 'url', label: 'URL', kind: 'text' },
    { name: 'headers', label: 'Headers', kind: 'pairs', hint: 'Name and value' },
    { name: 'body', label: 'JSON body fields', kind: 'pairs', hint: 'Key and value (not with GET)' },
  ],
  CONDITION: [
    {
      name: 'left',
      label: 'Value',
      kind: 'text',
      hint: 'e.g. {{ trigger.body.country }} or [[ trigger.body.country ]]',
    },
    {
      name: 'operator',
      label: 'Operator',
      kind: 'select',
      options: conditionOperators,
    },
    { name: 'right', label: 'Compared with', kind: 'text' },
  ],
};

/** Type `type`'s form parameters, each with whether the action requires it. */
function paramsOf(type: ActionType): (Param & { required: boolean })[] {
  const required: Record<string, boolean> = actionParameters[type];
  return (FORMS[type] as Param[]).map((param) => ({ ...param, required: required[param.name] === true }));
}

/** An action as the form keeps it: text inputs as strings, key/value rows as arrays. */
export interface DraftAction {
  key: string;
  type: ActionType;
  values: Record<string, string | [string, string][]>;
}

let nextKey = 0;
export function newDraft(type: ActionType = 'ADD_COMMENT'): DraftAction {
  nextKey++;
  return { key: `a${nextKey}`, type, values: {} };
}

/** A saved action back into the form. */
export function toDraft(action: Record<string, unknown>): DraftAction {
  const draft = newDraft(action.type as ActionType);
  for (const [name, value] of Object.entries(action)) {
    if (name === 'type') continue;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      draft.values[name] = Object.entries(value).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]);
    } else {
      draft.values[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return draft;
}

/** The form into the API's `{ type, ...parameters }`: empty inputs are left out. */
export function toAction(draft: DraftAction): Record<string, unknown> {
  const action: Record<string, unknown> = { type: draft.type };
  for (const param of paramsOf(draft.type)) {
    const value = draft.values[param.name];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      const rows = value.filter(([k]) => k.trim() !== '');
      if (rows.length > 0) action[param.name] = Object.fromEntries(rows.map(([k, v]) => [k.trim(), v]));
      continue;
    }
    if (value.trim() === '') continue;
    const numeric = /^-?\d+(\.\d+)?$/.test(value.trim());
    // A number field may hold a template instead; a comparison of size wants a number.
    const ordering =
      draft.type === 'CONDITION' &&
      param.name === 'right' &&
      ['GREATER_THAN', 'LESS_THAN'].includes(String(draft.values.operator));
    if ((param.kind === 'number' || ordering) && numeric) {
      action[param.name] = Number(value);
      continue;
    }
    action[param.name] = value;
  }
  return action;
}

/** The folders, pipelines (with their stages) and members the forms offer, as the server lists them. */
export interface Choices {
  folders: Outputs['folders']['list']['data'];
  pipelines: Outputs['pipelines']['list']['data'];
  members: Outputs['workspace']['members']['data'];
}

export function ActionBuilder({
  actions,
  onChange,
  choices,
  errors,
}: {
  actions: DraftAction[];
  onChange: (actions: DraftAction[]) => void;
  choices: Choices;
  /** Problems by path, e.g. `actions.0.title`. */
  errors: Record<string, string>;
}) {
  const update = (index: number, draft: DraftAction) =>
    onChange(actions.map((a, i) => (i === index ? draft : a)));
  const move = (index: number, by: number) => {
    const next = [...actions];
    next.splice(index + by, 0, ...next.splice(index, 1));
    onChange(next);
  };
  return (
    <fieldset>
      <legend>Actions, run in order</legend>
      {errors.actions ? <p className="field-error">{errors.actions}</p> : null}
      <ol className="steps">
        {actions.map((draft, index) => (
          <li key={draft.key} className="step">
            <ActionForm
              index={index}
              draft={draft}
              choices={choices}
              errors={errors}
              onChange={(d) => update(index, d)}
            />
            <div className="actions">
              <button type="button" onClick={() => move(index, -1)} disabled={index === 0}>
                Move up
              </button>
              <button type="button" onClick={() => move(index, 1)} disabled={index === actions.length - 1}>
                Move down
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => onChange(actions.filter((_, i) => i !== index))}
              >
                Remove step {index + 1}
              </button>
            </div>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onChange([...actions, newDraft()])}>
        Add an action
      </button>
    </fieldset>
  );
}

function ActionForm({
  index,
  draft,
  choices,
  errors,
  onChange,
}: {
  index: number;
  draft: DraftAction;
  choices: Choices;
  errors: Record<string, string>;
  onChange: (draft: DraftAction) => void;
}) {
  const set = (name: string, value: string | [string, string][]) =>
    onChange({ ...draft, values: { ...draft.values, [name]: value } });
  const prefix = `actions.${index}`;
  const errorOf = (name: string) =>
    errors[`${prefix}.${name}`] ??
    Object.entries(errors).find(([path]) => path.startsWith(`${prefix}.${name}.`))?.[1];
  const general = errors[prefix] ?? errors[`${prefix}.type`];
  const pipelineId = typeof draft.values.pipelineId === 'string' ? draft.values.pipelineId : '';
  const stageOptions = choices.pipelines
    .filter((p) => draft.type !== 'CREATE_DEAL' || !pipelineId || p.id === pipelineId)
    .flatMap((p) => p.stages.map((s) => ({ value: s.id, label: `${p.name}: ${s.name}` })));
  return (
    <>
      <h4>Step {index + 1}</h4>
      <SelectField
        label={`Step ${index + 1}: action`}
        value={draft.type}
        onChange={(e) => onChange({ ...draft, type: e.target.value as ActionType, values: {} })}
        options={actionTypes.map((t) => ({ value: t, label: LABELS[t] }))}
        error={general}
      />
      <div className="grid">
        {paramsOf(draft.type).map((param) => {
          const value = draft.values[param.name];
          const label = `${param.label}${param.required ? '' : ' (optional)'}`;
          const error = errorOf(param.name);
          const text = typeof value === 'string' ? value : '';
          const pick = (options: { value: string; label: string }[]) => (
            <SelectField
              key={param.name}
              label={label}
              value={text}
              error={error}
              onChange={(e) => set(param.name, e.target.value)}
              options={[{ value: '', label: '—' }, ...options]}
            />
          );
          switch (param.kind) {
            case 'folder':
              return pick(choices.folders.map((f) => ({ value: f.id, label: f.name })));
            case 'pipeline':
              return pick(choices.pipelines.map((p) => ({ value: p.id, label: p.name })));
            case 'stage':
              return pick(stageOptions);
            case 'member':
              return pick(choices.members.map((m) => ({ value: m.id, label: m.name })));
            case 'select':
              return pick(
                (param.options ?? []).map((o) => ({ value: o, label: o.toLowerCase().replace(/_/g, ' ') })),
              );
            case 'check':
              return (
                <label key={param.name} className="check">
                  <input
                    type="checkbox"
                    checked={text === param.value}
                    onChange={(e) => set(param.name, e.target.checked ? (param.value ?? 'true') : '')}
                  />{' '}
                  {param.label}
                </label>
              );
            case 'pairs':
              return (
                <Pairs
                  key={param.name}
                  label={label}
                  hint={param.hint}
                  rows={Array.isArray(value) ? value : []}
                  error={error}
                  onChange={(rows) => set(param.name, rows)}
                />
              );
            case 'textarea':
              return (
                <TextArea
                  key={param.name}
                  label={label}
                  hint={param.hint}
                  value={text}
                  error={error}
                  onChange={(v) => set(param.name, v)}
                />
              );
            default:
              return (
                <Field
                  key={param.name}
                  label={label}
                  hint={param.hint}
                  value={text}
                  error={error}
                  inputMode={param.kind === 'number' ? 'decimal' : undefined}
                  onChange={(e) => set(param.name, e.target.value)}
                />
              );
          }
        })}
      </div>
    </>
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
