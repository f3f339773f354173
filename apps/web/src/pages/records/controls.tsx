import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { Field, ProblemMessage, SelectField } from '../../lib/components.tsx';
import { api, problemOf, queryClient } from '../../lib/query.ts';
import { type PickedRecord, RecordChip, RecordPicker, useRecordTitles } from '../../lib/record-picker.tsx';
import {
  type Column,
  describeFilter,
  type FilterOp,
  firstColumnOf,
  firstOperatorOf,
  type Member,
  OPERATOR_LABELS,
  operatorsOf,
  type SavedView,
  sameDefinition,
  type ViewDefinition,
  type ViewFilter,
} from './model.ts';

/**
 * The saved views of a folder (docs/web-app.md, "Saved views"): pick one to show its columns,
 * sort and filters; save what is shown as a new view, or into the view picked; delete it.
 * Each person sees only their own.
 */
export function ViewsBar({
  folderId,
  view,
  picked,
  onPick,
}: {
  folderId: string;
  view: ViewDefinition;
  picked: SavedView | null;
  onPick: (view: SavedView | null) => void;
}) {
  const views = useQuery(api.views.list.queryOptions({ folderId }));
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const refresh = () => queryClient.invalidateQueries(api.views.list.queryFilter({ folderId }));
  const create = useMutation(
    api.views.create.mutationOptions({
      onSuccess: async (answer) => {
        await refresh();
        setNaming(false);
        setName('');
        onPick(answer.data);
        announce(`Saved the view “${answer.data.name}”.`);
      },
    }),
  );
  const update = useMutation(
    api.views.update.mutationOptions({
      onSuccess: async (answer) => {
        await refresh();
        onPick(answer.data);
        announce(`Saved the changes to “${answer.data.name}”.`);
      },
    }),
  );
  const remove = useMutation(
    api.views.delete.mutationOptions({
      onSuccess: async () => {
        const name = picked?.name;
        onPick(null);
        await refresh();
        announce(`Deleted the view “${name}”.`);
      },
    }),
  );
  const changed = picked !== null && !sameDefinition(picked.definition, view);
  const onCreate = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ folderId, name, definition: view });
  };
  const list = views.data?.data ?? [];
  const problem = problemOf(views.error ?? update.error ?? remove.error);
  return (
    <section className="views-bar" aria-label="Saved views">
      <div className="inline">
        <SelectField
          label="Saved view"
          value={picked?.id ?? ''}
          onChange={(e) => onPick(list.find((v) => v.id === e.target.value) ?? null)}
          options={[
            { value: '', label: 'All records (no view)' },
            ...list.map((v) => ({ value: v.id, label: v.name })),
          ]}
        />
        {picked ? (
          <>
            <button
              type="button"
              disabled={!changed || update.isPending}
              onClick={() => update.mutate({ id: picked.id, definition: view })}
            >
              Save changes to view
            </button>
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ id: picked.id })}
            >
              Delete view
            </button>
          </>
        ) : null}
        {naming ? null : (
          <button type="button" onClick={() => setNaming(true)}>
            Save as new view
          </button>
        )}
      </div>
      {changed ? <p className="hint">The table differs from the view “{picked.name}”.</p> : null}
      <ProblemMessage problem={problem} />
      {naming ? (
        <form className="inline card" onSubmit={onCreate} aria-label="Save as new view" noValidate>
          <Field
            label="View name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={problemOf(create.error)?.fields.name}
            autoFocus
            required
          />
          <button type="submit" disabled={create.isPending}>
            Save view
          </button>
          <button
            type="button"
            onClick={() => {
              setNaming(false);
              create.reset();
            }}
          >
            Cancel
          </button>
          <ProblemMessage problem={problemOf(create.error)} paths={['name']} />
        </form>
      ) : null}
    </section>
  );
}

/**
 * Which columns the table shows and in what order: a checkbox shows or hides each, and the
 * shown ones move up and down with buttons, so the keyboard does all of it.
 */
export function ColumnPicker({
  columns,
  shown,
  onChange,
}: {
  columns: Column[];
  shown: string[];
  onChange: (shown: string[]) => void;
}) {
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  useEffect(() => {
    if (!focusAfter) return;
    document.getElementById(focusAfter)?.focus();
    setFocusAfter(null);
  }, [focusAfter]);
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const ordered = [
    ...shown.flatMap((key) => byKey.get(key) ?? []),
    ...columns.filter((c) => !shown.includes(c.key)),
  ];
  const move = (key: string, by: -1 | 1, button: string) => {
    const at = shown.indexOf(key);
    const to = at + by;
    if (at < 0 || to < 0 || to >= shown.length) return;
    const next = [...shown];
    next.splice(to, 0, ...next.splice(at, 1));
    onChange(next);
    setFocusAfter(button);
    announce(`${byKey.get(key)?.label ?? key} moved to place ${to + 1} of ${shown.length}.`);
  };
  return (
    <details className="picker">
      <summary>Columns ({shown.length} shown)</summary>
      <ol className="column-list">
        {ordered.map((column) => {
          const at = shown.indexOf(column.key);
          const id = `column-${column.key.replace(/\W/g, '-')}`;
          return (
            <li key={column.key}>
              <label>
                <input
                  type="checkbox"
                  checked={at >= 0}
                  // The table shows at least one column.
                  disabled={at >= 0 && shown.length === 1}
                  onChange={(e) =>
                    onChange(
                      e.target.checked ? [...shown, column.key] : shown.filter((k) => k !== column.key),
                    )
                  }
                />{' '}
                Show {column.label}
              </label>
              {at >= 0 ? (
                <span className="move">
                  <button
                    id={`${id}-up`}
                    type="button"
                    aria-label={`Move ${column.label} up`}
                    disabled={at === 0}
                    onClick={() => move(column.key, -1, `${id}-up`)}
                  >
                    ↑
                  </button>
                  <button
                    id={`${id}-down`}
                    type="button"
                    aria-label={`Move ${column.label} down`}
                    disabled={at === shown.length - 1}
                    onClick={() => move(column.key, 1, `${id}-down`)}
                  >
                    ↓
                  </button>
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </details>
  );
}

/**
 * The view's filters, each removable, and a form that adds one: a field, an operator its type
 * takes, a value. They go to the list as `filter[<field>][<op>]=<value>` (docs/api.md,
 * "Filters, sorts and counts"); a value the list refuses is reported with its message. A
 * relation's value is a record found with a search ("Company is Acme": the records linked to
 * it), kept in the view by its id and shown by its title.
 */
export function FilterBar({
  columns,
  filters,
  members,
  onChange,
}: {
  columns: Column[];
  filters: ViewFilter[];
  members: Member[];
  onChange: (filters: ViewFilter[]) => void;
}) {
  const [field, setField] = useState(columns[0]?.key ?? 'title');
  const column = columns.find((c) => c.key === field) ?? firstColumnOf(columns);
  const ops = operatorsOf(column);
  const [op, setOp] = useState<FilterOp>(() => firstOperatorOf(column));
  const [value, setValue] = useState('');
  const [picked, setPicked] = useState<PickedRecord | null>(null);
  const [error, setError] = useState<string | undefined>();
  const currentOp = ops.includes(op) ? op : firstOperatorOf(column);
  const options = valueOptions(column, currentOp, members);
  const picking = Boolean(column.relatesTo) && currentOp !== 'empty';
  const relationValues = filters.flatMap((f) =>
    columns.find((c) => c.key === f.field)?.relatesTo && f.op !== 'empty' ? [f.value] : [],
  );
  const read = useRecordTitles(relationValues);
  const titles = new Map(read);
  if (picked) titles.set(picked.id, picked.title);
  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    // A choice shows its first option until another is picked.
    const given = picking ? (picked?.id ?? '') : options ? value || (options[0]?.value ?? '') : value.trim();
    if (given === '') {
      setError(picking ? 'Find the record to compare with.' : 'Give a value to compare with.');
      return;
    }
    const rest = filters.filter((f) => !(f.field === column.key && f.op === currentOp));
    onChange([...rest, { field: column.key, op: currentOp, value: given }]);
    setValue('');
    setPicked(null);
    setError(undefined);
    announce(
      `Filter added: ${describeFilter({ field: column.key, op: currentOp, value: given }, columns, members, titles)}.`,
    );
  };
  return (
    <section className="filters" aria-label="Filters">
      {filters.length > 0 ? (
        <ul className="chips">
          {filters.map((f) => {
            const said = describeFilter(f, columns, members, titles);
            return (
              <li key={`${f.field} ${f.op}`}>
                {said}{' '}
                <button
                  type="button"
                  aria-label={`Remove filter: ${said}`}
                  onClick={() => {
                    onChange(filters.filter((x) => x !== f));
                    announce(`Filter removed: ${said}.`);
                  }}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <details className="picker">
        <summary>Add a filter</summary>
        <form className="row" onSubmit={onAdd} aria-label="Add a filter" noValidate>
          <SelectField
            label="Filter field"
            value={column.key}
            onChange={(e) => {
              setField(e.target.value);
              setValue('');
              setPicked(null);
            }}
            options={columns.map((c) => ({ value: c.key, label: c.label }))}
          />
          <SelectField
            label="Operator"
            value={currentOp}
            onChange={(e) => {
              setOp(e.target.value as FilterOp);
              setValue('');
            }}
            options={ops.map((o) => ({ value: o, label: OPERATOR_LABELS[o] }))}
          />
          {picking && column.relatesTo ? (
            picked ? (
              <div className="field">
                <span className="field-label">Value</span>
                <span>
                  <RecordChip id={picked.id} title={picked.title} />{' '}
                  <button type="button" onClick={() => setPicked(null)}>
                    Choose another
                  </button>
                </span>
              </div>
            ) : (
              <RecordPicker label="Value" folderId={column.relatesTo} onPick={setPicked} error={error} />
            )
          ) : options ? (
            <SelectField
              label="Value"
              value={value || (options[0]?.value ?? '')}
              onChange={(e) => setValue(e.target.value)}
              options={options}
            />
          ) : (
            <Field
              label="Value"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              error={error}
              type={column.kind === 'date' && currentOp !== 'in' ? 'date' : 'text'}
              hint={valueHint(column, currentOp)}
            />
          )}
          <button type="submit" className="align-end">
            Add filter
          </button>
        </form>
      </details>
    </section>
  );
}

/** The values a filter chooses from, when they are few: yes/no, a SELECT's options, members. */
function valueOptions(column: Column, op: FilterOp, members: Member[]) {
  if (op === 'empty') {
    return [
      { value: 'true', label: 'yes' },
      { value: 'false', label: 'no (has a value)' },
    ];
  }
  if (op === 'in') return null;
  if (column.kind === 'boolean') {
    return [
      { value: 'true', label: 'true' },
      { value: 'false', label: 'false' },
    ];
  }
  if ((column.kind === 'enum' || column.kind === 'multi') && column.field?.options) {
    return column.field.options.map((o) => ({ value: o, label: o }));
  }
  if (column.key === 'ownerId') return members.map((m) => ({ value: m.id, label: m.name }));
  return null;
}

function valueHint(column: Column, op: FilterOp): string | undefined {
  if (op === 'in') return 'Values separated by commas';
  if (column.kind === 'instant') return 'An instant such as 2026-11-22T09:30:00Z';
  return undefined;
}
