import { useMutation, useQuery } from '@tanstack/react-query';
import { type MouseEvent, useRef, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { api, problemOf, queryClient } from '../../lib/query.ts';
import { type PickedRecord, RecordChip, RecordPicker } from '../../lib/record-picker.tsx';
import { Link } from '../../lib/router.tsx';
import { type Column, type RecordItem, relatedInput } from './model.ts';

/**
 * A link made or undone changes both records (the other side's ONE value or list), so every
 * records query is read again: the page's list and its cells' related reads, one batch.
 */
function invalidateLinks() {
  return queryClient.invalidateQueries(api.records.pathFilter());
}

/**
 * A MANY relation cell (docs/web-app.md, "Relations"): the first records the row links to as
 * chips, each with × to unlink it (`records.unlink`), "+N" for the others (a link to the
 * record's page, which lists them all), and + to link one more with the search of ONE cells
 * (`records.link`). Enter on + or a double click on the cell opens the search; the record
 * picked is linked at once, without a label.
 */
export function ManyRelationCell({ record, column }: { record: RecordItem; column: Column }) {
  const [editing, setEditing] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const related = useQuery(api.records.related.queryOptions(relatedInput(record, column)));
  const where = `${column.label} of ${record.title}`;
  const refocus = () => requestAnimationFrame(() => opener.current?.focus());
  const unlink = useMutation(
    api.records.unlink.mutationOptions({
      onSuccess: async (_answer, input) => {
        const gone = related.data?.data.find((r) => r.id === input.to);
        announce(`Removed “${gone?.title ?? input.to}” from ${column.label} of “${record.title}”.`);
        // The chip's × is gone with it: the keyboard carries on from the cell's +.
        refocus();
        await invalidateLinks();
      },
    }),
  );
  const close = () => {
    setEditing(false);
    refocus();
  };
  const linked = related.data?.data ?? [];
  if (editing) {
    return (
      <td className="editing" data-column={column.key}>
        <ManyRelationEditor record={record} column={column} linked={linked.map((r) => r.id)} onDone={close} />
      </td>
    );
  }
  const total = related.data?.meta.total ?? linked.length;
  const more = total - linked.length;
  // A click's `detail` counts the clicks; Enter or Space on the button gives 0.
  const open = (event: MouseEvent) => {
    if (event.detail === 0 || event.detail === 2) setEditing(true);
  };
  const problem = problemOf(unlink.error);
  return (
    <td
      data-column={column.key}
      className="relation-cell relation-many"
      onDoubleClick={() => setEditing(true)}
    >
      {related.isPending ? (
        <span className="hint">…</span>
      ) : related.error ? (
        <span className="hint" title={problemOf(related.error)?.message}>
          (not read)
        </span>
      ) : linked.length > 0 ? (
        <ul className="cell-chips" aria-label={where}>
          {linked.map((r) => (
            <li key={r.id}>
              <RecordChip id={r.id} title={r.title} />
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${r.title} from ${where}`}
                disabled={unlink.isPending}
                onClick={() => unlink.mutate({ id: record.id, field: column.field?.key ?? '', to: r.id })}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
          {more > 0 ? (
            <li className="more">
              <Link to={`/records/${record.id}`} aria-label={`${more} more: all ${where}`}>
                +{more}
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}{' '}
      <button ref={opener} type="button" className="cell-edit" aria-label={`Add to ${where}`} onClick={open}>
        <span aria-hidden="true">+</span>
      </button>
      {problem ? <small className="field-error">{problem.message}</small> : null}
    </td>
  );
}

/**
 * The search of a MANY relation cell, over the field's folder: the record picked is linked at
 * once (`records.link`, no label; the record's page sets labels). Escape or Cancel gives up. A
 * refusal (the record gone to Trash meanwhile, a field at its 10,000 links) shows the server's
 * message under the search and keeps it open.
 */
function ManyRelationEditor({
  record,
  column,
  linked,
  onDone,
}: {
  record: RecordItem;
  column: Column;
  /** The records the cell shows: not offered again. */
  linked: string[];
  onDone: () => void;
}) {
  const picked = useRef<PickedRecord | null>(null);
  const link = useMutation(
    api.records.link.mutationOptions({
      onSuccess: async () => {
        announce(`Added “${picked.current?.title}” to ${column.label} of “${record.title}”.`);
        onDone();
        await invalidateLinks();
      },
    }),
  );
  const problem = problemOf(link.error);
  const choose = (value: PickedRecord) => {
    if (link.isPending) return;
    picked.current = value;
    link.mutate({ id: record.id, field: column.field?.key ?? '', to: value.id });
  };
  return (
    <div className="cell-editor relation-editor">
      <RecordPicker
        label={`Add to ${column.label} of ${record.title}`}
        labelHidden
        autoFocus
        folderId={column.relatesTo}
        exclude={[record.id, ...linked]}
        onPick={choose}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onDone();
          }
        }}
        error={problem ? (problem.fields.to ?? problem.message) : null}
        disabled={link.isPending}
      />
      <span className="cell-editor-actions">
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </span>
    </div>
  );
}
