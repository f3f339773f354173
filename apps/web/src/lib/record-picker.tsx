import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { FieldNotes } from './components.tsx';
import { api, type Outputs } from './query.ts';
import { Link } from './router.tsx';

/** A record as the picker lists it (`records.list`). */
export type PickedRecord = Outputs['records']['list']['data'][number];

/** Records a search shows at a time. */
const SHOWN = 8;
/** How long typing pauses before the search is sent. */
const PAUSE_MS = 200;

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A search box over records that picks one (docs/web-app.md, "Relations"): what is typed is
 * sent as `q` to `records.list` (title, email, phone and text fields), in one folder or, with
 * no `folderId`, in all of them; the first 8 records found are offered. Arrow keys move through
 * them, Enter or a click picks one, Escape is left to `onKeyDown`. A combobox with a listbox
 * (WAI-ARIA 1.2), so a screen reader says how many were found and which one is active.
 */
export function RecordPicker({
  label,
  folderId,
  exclude = [],
  onPick,
  onKeyDown,
  labelHidden = false,
  autoFocus = false,
  error,
  hint,
  disabled = false,
}: {
  label: string;
  folderId?: string | undefined;
  /** Records not offered (the record itself, those already linked). */
  exclude?: readonly string[];
  onPick: (record: PickedRecord) => void;
  /** Keys the picker does not use itself (Escape, say). */
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  labelHidden?: boolean;
  autoFocus?: boolean;
  error?: string | null | undefined;
  hint?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useSettled(text.trim(), PAUSE_MS);
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const found = useQuery({
    ...api.records.list.queryOptions({
      ...(folderId ? { folderId } : {}),
      ...(q ? { q } : {}),
      pageSize: SHOWN + exclude.length,
    }),
    placeholderData: keepPreviousData,
    enabled: open && !disabled,
  });
  const offered = (found.data?.data ?? []).filter((r) => !exclude.includes(r.id)).slice(0, SHOWN);
  const current = Math.min(active, Math.max(offered.length - 1, 0));
  const folderName = (fid: string) => folders.data?.data.find((f) => f.id === fid)?.name ?? '';
  const where = folderId ? folderName(folderId) : 'any folder';
  const pick = (record: PickedRecord) => {
    setText('');
    setOpen(false);
    setActive(0);
    onPick(record);
  };
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      const by = event.key === 'ArrowDown' ? 1 : -1;
      setActive(offered.length === 0 ? 0 : (current + by + offered.length) % offered.length);
      return;
    }
    if (event.key === 'Enter' && open && offered[current]) {
      event.preventDefault();
      pick(offered[current]);
      return;
    }
    onKeyDown?.(event);
  };
  const listId = `${id}-list`;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const expanded = open && !disabled;
  return (
    <div className="field record-picker">
      <label htmlFor={id} className={labelHidden ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && offered[current] ? `${id}-${offered[current].id}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        placeholder={`Search ${where}`}
        value={text}
        disabled={disabled}
        // The caller asks for it where the picker is what the user just opened (a cell's editor).
        // biome-ignore lint/a11y/noAutofocus: opened on purpose, like the cell editors' inputs
        autoFocus={autoFocus}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={keyDown}
      />
      <FieldNotes id={id} hint={hint} error={error ?? undefined} />
      <div className="picker-popup" hidden={!expanded}>
        <div
          id={listId}
          role="listbox"
          aria-label={`Records of ${where}`}
          className="picker-options"
          hidden={offered.length === 0}
        >
          {expanded
            ? offered.map((record, i) => (
                // The keyboard works through the input (aria-activedescendant); a click picks too.
                // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys
                <div
                  key={record.id}
                  id={`${id}-${record.id}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={i === current}
                  // Keeps the focus in the input, so the click is not lost to its blur.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => pick(record)}
                  onMouseEnter={() => setActive(i)}
                >
                  {record.title}
                  {record.email || !folderId ? (
                    <small className="hint">
                      {' '}
                      {[record.email, folderId ? '' : folderName(record.folderId)]
                        .filter(Boolean)
                        .join(' · ')}
                    </small>
                  ) : null}
                </div>
              ))
            : null}
        </div>
        {expanded && !found.data ? <small className="hint picker-note">Searching…</small> : null}
        {expanded && found.data && offered.length === 0 ? (
          <small className="hint picker-note">
            {q ? `No record of ${where} matches “${q}”.` : `No records in ${where}.`}
          </small>
        ) : null}
      </div>
    </div>
  );
}

/** A linked record as a chip: its title, a link to its page (`onOpen` hears the click, to close a dialog). */
export function RecordChip({ id, title, onOpen }: { id: string; title: string; onOpen?: () => void }) {
  return (
    <Link to={`/records/${id}`} className="record-chip" onClick={onOpen}>
      {title}
    </Link>
  );
}

/**
 * The titles of records by id, read one by one (`records.get`, cached): for the few places
 * that hold an id without its record, such as a saved filter "Company is …". A record gone to
 * Trash keeps its id as its title.
 */
export function useRecordTitles(ids: readonly string[]): Map<string, string> {
  const unique = [...new Set(ids)];
  const results = useQueries({
    queries: unique.map((id) => ({ ...api.records.get.queryOptions({ id }), retry: false })),
  });
  const titles = new Map<string, string>();
  unique.forEach((id, i) => {
    const title = results[i]?.data?.data.title;
    if (title !== undefined) titles.set(id, title);
  });
  return titles;
}
