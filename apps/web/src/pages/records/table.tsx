import { useMutation, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { api, problemOf, queryClient } from '../../lib/query.ts';
import { type PickedRecord, RecordChip, RecordPicker } from '../../lib/record-picker.tsx';
import { Link } from '../../lib/router.tsx';
import { ManyRelationCell } from './many-cell.tsx';
import {
  type Column,
  cellText,
  editText,
  linkedRecord,
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
 * with the typed text and the server's message under it. A ONE relation cell shows the linked
 * record as a chip that opens it; its editor searches the field's folder and saves the record
 * picked (or none) at once. A MANY relation cell is many-cell.tsx's.
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
  if (column.many) return <ManyRelationCell record={record} column={column} />;
  const text = cellText(record, column, members);
  const close = () => {
    setEditing(false);
    // Back to the cell, so the keyboard carries on from where it was.
    requestAnimationFrame(() => opener.current?.focus());
  };
  if (editing) {
    return (
      <td className="editing" data-column={column.key}>
        {column.relatesTo ? (
          <RelationEditor record={record} column={column} folderId={column.relatesTo} onDone={close} />
        ) : (
          <CellEditor record={record} column={column} onDone={close} />
        )}
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
  if (column.relatesTo) {
    const value = record.data[column.field?.key ?? ''];
    return (
      <td data-column={column.key} className="relation-cell" onDoubleClick={() => setEditing(true)}>
        {typeof value === 'string' ? <LinkedChip record={record} column={column} id={value} /> : null}{' '}
        <button
          ref={opener}
          type="button"
          className="cell-edit"
          aria-label={`${label}: ${text || 'empty'}`}
          onClick={open}
        >
          <span aria-hidden="true">{typeof value === 'string' ? '✎' : '+'}</span>
        </button>
      </td>
    );
  }
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
 * The chip of a ONE relation cell: the linked record's title from the page's `expand`. Only
 * when the list could not expand the field (more ONE columns shown than it expands at once)
 * is the record read on its own.
 */
function LinkedChip({ record, column, id }: { record: RecordItem; column: Column; id: string }) {
  const known = linkedRecord(record, column);
  const fetched = useQuery({ ...api.records.get.queryOptions({ id }), enabled: known === undefined });
  if (known === null) return <span className="hint">(in Trash)</span>;
  const title = known?.title ?? fetched.data?.data.title;
  return <RecordChip id={id} title={title ?? '…'} />;
}

/**
 * The editor of a ONE relation cell: a search over the field's folder. Picking a record saves
 * it at once (`records.update` with `data.<key>` set to its id); Clear saves none; Escape or
 * Cancel gives up. A refusal shows the server's message under the search and keeps it open.
 */
function RelationEditor({
  record,
  column,
  folderId,
  onDone,
}: {
  record: RecordItem;
  column: Column;
  folderId: string;
  onDone: () => void;
}) {
  const key = column.field?.key ?? '';
  const picked = useRef<PickedRecord | null>(null);
  const save = useMutation(
    api.records.update.mutationOptions({
      onSuccess: (answer, input) => {
        const saved = answer.data;
        const linked = (input.data?.[key] ?? null) === null ? null : picked.current;
        // The answer has no `expanded`: the row keeps its others and gets the record picked.
        queryClient.setQueriesData<{ data: RecordItem[] }>(api.records.list.pathFilter(), (page) =>
          page
            ? {
                ...page,
                data: page.data.map((r) =>
                  r.id === saved.id ? { ...saved, expanded: { ...r.expanded, [key]: linked } } : r,
                ),
              }
            : page,
        );
        void queryClient.invalidateQueries(api.records.pathFilter());
        announce(
          linked
            ? `Linked “${saved.title}” to “${linked.title}” as its ${column.label}.`
            : `Cleared ${column.label} of “${saved.title}”.`,
        );
        onDone();
      },
    }),
  );
  const problem = problemOf(save.error);
  const error = problem ? (problem.fields[`data.${key}`] ?? problem.message) : null;
  const current = record.data[key];
  const choose = (value: PickedRecord | null) => {
    if (save.isPending) return;
    picked.current = value;
    save.mutate({ id: record.id, data: { [key]: value ? value.id : null } });
  };
  return (
    <div className="cell-editor relation-editor">
      <RecordPicker
        label={`${column.label} of ${record.title}`}
        labelHidden
        autoFocus
        folderId={folderId}
        exclude={[record.id, ...(typeof current === 'string' ? [current] : [])]}
        onPick={choose}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onDone();
          }
        }}
        error={error}
        disabled={save.isPending}
      />
      <span className="cell-editor-actions">
        <button type="button" onClick={() => choose(null)} disabled={save.isPending || current === undefined}>
          Clear
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </span>
    </div>
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
        // The answer has no `expanded`; the row's linked records have not changed.
        queryClient.setQueriesData<{ data: RecordItem[] }>(api.records.list.pathFilter(), (page) =>
          page
            ? {
                ...page,
                data: page.data.map((r) =>
                  r.id === saved.id ? (r.expanded ? { ...saved, expanded: r.expanded } : saved) : r,
                ),
              }
            : page,
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
