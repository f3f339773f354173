import { useMutation } from '@tanstack/react-query';
import { type KeyboardEvent, type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { api, problemOf, queryClient } from '../../lib/query.ts';
import { Link } from '../../lib/router.tsx';
import {
  type Column,
  cellText,
  editText,
  type Member,
  type RecordItem,
  updateInput,
  type ViewDefinition,
} from './model.ts';

/**
 * The records of one page as a table: a checkbox per row (and one for the whole page), the
 * view's columns in its order, a sort button in each sortable header (`aria-sort` says the
 * order), and cells edited in place: Enter or a double click opens the editor, Enter saves
 * through `records.update`, Escape cancels. A value the server refuses keeps its editor open
 * with the typed text and the server's message under it.
 */
export function RecordsTable({
  records,
  columns,
  view,
  members,
  selected,
  onSelect,
  onSort,
}: {
  records: RecordItem[];
  columns: Column[];
  view: ViewDefinition;
  members: Member[];
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
  onSort: (sort: string | null) => void;
}) {
  const all = records.length > 0 && records.every((r) => selected.has(r.id));
  const some = records.some((r) => selected.has(r.id));
  const selectAll = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = some && !all;
  }, [some, all]);
  return (
    <div className="table-scroll">
      <table className="records-table">
        <thead>
          <tr>
            <th scope="col" className="select">
              <input
                ref={selectAll}
                type="checkbox"
                aria-label="Select all records on this page"
                checked={all}
                onChange={(e) =>
                  onSelect(
                    records.map((r) => r.id),
                    e.target.checked,
                  )
                }
              />
            </th>
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} sort={view.sort} onSort={onSort} />
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id} className={selected.has(record.id) ? 'selected' : undefined}>
              <td className="select">
                <input
                  type="checkbox"
                  aria-label={`Select ${record.title}`}
                  checked={selected.has(record.id)}
                  onChange={(e) => onSelect([record.id], e.target.checked)}
                />
              </td>
              {columns.map((column) => (
                <Cell key={column.key} record={record} column={column} members={members} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A column's header: a button that sorts by it, ascending then descending then back to newest first. */
function HeaderCell({
  column,
  sort,
  onSort,
}: {
  column: Column;
  sort: string | null;
  onSort: (sort: string | null) => void;
}) {
  if (!column.sortable) {
    return (
      <th scope="col" data-column={column.key}>
        {column.label}
      </th>
    );
  }
  const order = sort === column.key ? 'ascending' : sort === `-${column.key}` ? 'descending' : 'none';
  const next = order === 'none' ? column.key : order === 'ascending' ? `-${column.key}` : null;
  const arrow = order === 'ascending' ? ' ▲' : order === 'descending' ? ' ▼' : '';
  const says =
    order === 'none'
      ? `Sort by ${column.label}`
      : order === 'ascending'
        ? `Sort by ${column.label}, descending`
        : `Stop sorting by ${column.label}`;
  return (
    <th scope="col" aria-sort={order} data-column={column.key}>
      <button type="button" className="sort" title={says} onClick={() => onSort(next)}>
        {column.label}
        <span aria-hidden="true">{arrow}</span>
      </button>
    </th>
  );
}

/** One cell: its value, and for an editable column the editor behind Enter or a double click. */
function Cell({ record, column, members }: { record: RecordItem; column: Column; members: Member[] }) {
  const [editing, setEditing] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const text = cellText(record, column, members);
  const close = () => {
    setEditing(false);
    // Back to the cell, so the keyboard carries on from where it was.
    requestAnimationFrame(() => opener.current?.focus());
  };
  if (editing) {
    return (
      <td className="editing" data-column={column.key}>
        <CellEditor record={record} column={column} onDone={close} />
      </td>
    );
  }
  if (!column.editable) {
    return <td data-column={column.key}>{text}</td>;
  }
  // A click's `detail` counts the clicks; Enter or Space on the button gives 0.
  const open = (event: MouseEvent) => {
    if (event.detail === 0 || event.detail === 2) setEditing(true);
  };
  const label = `Edit ${column.label} of ${record.title}`;
  if (column.key === 'title') {
    return (
      <td data-column={column.key} className="title-cell" onDoubleClick={() => setEditing(true)}>
        <Link to={`/records/${record.id}`}>{record.title}</Link>{' '}
        <button ref={opener} type="button" className="cell-edit" aria-label={label} onClick={open}>
          <span aria-hidden="true">✎</span>
        </button>
      </td>
    );
  }
  return (
    <td data-column={column.key}>
      <button
        ref={opener}
        type="button"
        className="cell"
        aria-label={`${label}: ${text || 'empty'}`}
        onClick={open}
      >
        {text || <span className="hint">—</span>}
      </button>
    </td>
  );
}

/**
 * The editor of a cell. Enter saves, Escape (or Cancel) gives up; leaving it with Tab or the
 * mouse keeps what was typed until one of them is chosen. A refusal shows the server's message
 * for the field under the input and keeps the text.
 */
function CellEditor({ record, column, onDone }: { record: RecordItem; column: Column; onDone: () => void }) {
  const [text, setText] = useState(() => editText(record, column));
  const input = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const id = useId();
  const save = useMutation(
    api.records.update.mutationOptions({
      onSuccess: (answer) => {
        const saved = answer.data;
        queryClient.setQueriesData<{ data: RecordItem[] }>(api.records.list.pathFilter(), (page) =>
          page ? { ...page, data: page.data.map((r) => (r.id === saved.id ? saved : r)) } : page,
        );
        // The row may now sort or filter elsewhere: the server says where.
        void queryClient.invalidateQueries(api.records.list.pathFilter());
        announce(`Saved ${column.label} of “${saved.title}”.`);
        onDone();
      },
    }),
  );
  useEffect(() => {
    input.current?.focus();
    if (input.current instanceof HTMLInputElement) input.current.select();
  }, []);
  const problem = problemOf(save.error);
  const path = column.field ? `data.${column.field.key}` : column.key;
  const error = problem ? (problem.fields[path] ?? problem.message) : null;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (!save.isPending) save.mutate(updateInput(record, column, text));
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    }
  };
  const label = `${column.label} of ${record.title}`;
  const common = {
    id,
    ref: input,
    value: text,
    'aria-label': label,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : `${id}-hint`,
    onKeyDown,
  };
  const type = column.field?.type;
  return (
    <div className="cell-editor">
      {type === 'SELECT' || type === 'BOOLEAN' ? (
        <select {...common} onChange={(e) => setText(e.target.value)}>
          <option value="">(none)</option>
          {(type === 'BOOLEAN' ? ['true', 'false'] : (column.field?.options ?? [])).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={type === 'DATE' ? 'date' : 'text'}
          onChange={(e) => setText(e.target.value)}
        />
      )}
      <span className="cell-editor-actions">
        <button
          type="button"
          onClick={() => save.mutate(updateInput(record, column, text))}
          disabled={save.isPending}
        >
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </span>
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      ) : (
        <small id={`${id}-hint`} className="visually-hidden">
          Enter saves, Escape cancels.
        </small>
      )}
    </div>
  );
}
