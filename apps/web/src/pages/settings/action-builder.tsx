import { type ActionType, actionTypes } from '@crm/constants';
import { useId } from 'react';
import { SelectField } from '../../lib/components.tsx';
import type { Outputs } from '../../lib/query.ts';
import { type DraftAction, errorsUnder, newDraft } from './action-draft.ts';
import { defaultMode, LABELS, listLabel, MODES, paramsOf, visibleParams } from './action-forms.ts';
import { ParamInput, RecordsQuery } from './action-inputs.tsx';
import { CodeStep } from './code-step.tsx';
import { ConditionEditor } from './condition-editor.tsx';

/**
 * Builds a workflow's actions with forms (docs/workflows.md, "Actions"), so nobody types JSON.
 * A BRANCH's arms and a FOR_EACH's body are lists of their own, built by this same builder
 * inside the step; problems are shown by their path (`actions.2.then.0.title`) next to the
 * input they are about.
 */

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
  path = 'actions',
  title = '',
  legend = 'Actions, run in order',
  hint,
}: {
  actions: DraftAction[];
  onChange: (actions: DraftAction[]) => void;
  choices: Choices;
  /** Problems by path, e.g. `actions.0.title`. */
  errors: Record<string, string>;
  /** Where the list is in the workflow: `actions`, `actions.2.then`. */
  path?: string;
  /** A nested list's name, e.g. "Step 3 › Then"; its steps are "Step 3 › Then 1", … */
  title?: string;
  legend?: string;
  hint?: string | undefined;
}) {
  const update = (index: number, draft: DraftAction) =>
    onChange(actions.map((a, i) => (i === index ? draft : a)));
  const move = (index: number, by: number) => {
    const next = [...actions];
    next.splice(index + by, 0, ...next.splice(index, 1));
    onChange(next);
  };
  const labelOf = (index: number) => (title ? `${title} ${index + 1}` : `Step ${index + 1}`);
  return (
    <fieldset className={title ? 'nested-actions' : undefined}>
      <legend>{legend}</legend>
      {hint ? <small className="hint">{hint}</small> : null}
      {errors[path] ? <p className="field-error">{errors[path]}</p> : null}
      {actions.length === 0 && title ? <p className="empty">No actions.</p> : null}
      <ol className="steps">
        {actions.map((draft, index) => {
          const label = labelOf(index);
          return (
            <li key={draft.key} className={`step step-${draft.type.toLowerCase().replace(/_/g, '-')}`}>
              <ActionForm
                label={label}
                prefix={`${path}.${index}`}
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
                  Remove {label.charAt(0).toLowerCase()}
                  {label.slice(1)}
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        onClick={() => onChange([...actions, newDraft()])}
        aria-label={title ? `Add an action to ${title}` : undefined}
      >
        Add an action
      </button>
    </fieldset>
  );
}

function ActionForm({
  label,
  prefix,
  draft,
  choices,
  errors,
  onChange,
}: {
  /** "Step 2", "Step 3 › Then 1". */
  label: string;
  /** The action's path: `actions.2`, `actions.3.then.0`. */
  prefix: string;
  draft: DraftAction;
  choices: Choices;
  errors: Record<string, string>;
  onChange: (draft: DraftAction) => void;
}) {
  const heading = useId();
  const set = (name: string, value: string | [string, string][]) =>
    onChange({ ...draft, values: { ...draft.values, [name]: value } });
  const errorOf = (name: string) => errorsUnder(errors, `${prefix}.${name}`);
  const general = [errors[prefix], errors[`${prefix}.type`]].filter(Boolean).join('; ') || undefined;
  const modes = MODES[draft.type];
  const shown = visibleParams(draft.type, draft.mode);
  const hiddenErrors = paramsOf(draft.type)
    .filter((p) => !shown.some((s) => s.name === p.name))
    .map((p) => errorOf(p.name))
    .filter(Boolean)
    .join('; ');
  const simple = shown.filter((p) => !['actions', 'condition', 'code', 'records'].includes(p.kind));
  const lists = shown.filter((p) => p.kind === 'actions');
  return (
    <fieldset className="action" aria-labelledby={heading}>
      <h4 id={heading}>{label}</h4>
      <SelectField
        label={`${label}: action`}
        value={draft.type}
        onChange={(e) => {
          const type = e.target.value as ActionType;
          onChange({ ...newDraft(type), key: draft.key, mode: defaultMode(type) });
        }}
        options={actionTypes.map((t) => ({ value: t, label: LABELS[t] }))}
        error={general}
      />
      {modes ? (
        <SelectField
          label={modes.label}
          value={draft.mode}
          onChange={(e) => onChange({ ...draft, mode: e.target.value })}
          options={modes.options}
          error={hiddenErrors || undefined}
        />
      ) : null}
      {draft.type === 'BRANCH' ? (
        <ConditionEditor
          label={label}
          value={draft.condition}
          error={errorOf('if')}
          onChange={(condition) => onChange({ ...draft, condition })}
        />
      ) : null}
      <div className="grid">
        {simple.map((param) => (
          <ParamInput
            key={param.name}
            param={param}
            draft={draft}
            choices={choices}
            error={errorOf(param.name)}
            onChange={(value) => set(param.name, value)}
          />
        ))}
      </div>
      {draft.type === 'CODE' ? (
        <CodeStep
          label={label}
          source={typeof draft.values.source === 'string' ? draft.values.source : ''}
          error={errorOf('source')}
          onChange={(source) => set('source', source)}
        />
      ) : null}
      {draft.type === 'FOR_EACH' && draft.mode === 'records' ? (
        <RecordsQuery
          values={draft.values}
          folders={choices.folders}
          error={errorOf('records')}
          onChange={(part, value) => set(`records.${part}`, value)}
        />
      ) : null}
      {lists.length > 0 ? (
        <div className={lists.length > 1 ? 'branch' : undefined}>
          {lists.map((param) => (
            <ActionBuilder
              key={param.name}
              actions={draft.lists[param.name] ?? []}
              onChange={(list) => onChange({ ...draft, lists: { ...draft.lists, [param.name]: list } })}
              choices={choices}
              errors={errors}
              path={`${prefix}.${param.name}`}
              title={`${label} › ${listLabel(param.name)}`}
              legend={`${param.label}${param.required ? '' : ' (optional)'}`}
              hint={param.hint}
            />
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}
