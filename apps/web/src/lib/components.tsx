import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { announce } from './announcer.tsx';
import { problemOf } from './query.ts';
import { takeHeadingFocus } from './router.tsx';
import type { Problem } from './trpc.ts';

/**
 * The hint and the error under an input, with the ids its `aria-describedby` names
 * (`<id>-hint`, `<id>-error`).
 */
export function FieldNotes({
  id,
  hint,
  error,
}: {
  id: string;
  hint?: string | undefined;
  error?: string | undefined;
}) {
  return (
    <>
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      ) : null}
    </>
  );
}

/**
 * The folders as a list of buttons, the current one marked, for the pages that show one folder
 * at a time (records, folder settings).
 */
export function FolderList({
  folders,
  current,
  onChoose,
}: {
  folders: { id: string; name: string }[] | undefined;
  current: string | undefined;
  onChoose: (id: string) => void;
}) {
  if (!folders) return <Loading what="folders" />;
  return (
    <ul>
      {folders.map((f) => (
        <li key={f.id}>
          <button
            type="button"
            className="link"
            aria-current={f.id === current ? 'true' : undefined}
            onClick={() => onChoose(f.id)}
          >
            {f.name}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A labelled input with its error right under it, tied together for screen readers. */
export function Field({
  label,
  error,
  hint,
  ...input
}: { label: string; error?: string | undefined; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

export function SelectField({
  label,
  error,
  options,
  ...select
}: {
  label: string;
  error?: string | undefined;
  options: { value: string; label: string }[];
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}

/**
 * What the form says above its fields when the service refused some of their values: how
 * many to correct, in words. The service's own message for such a refusal sums the fields up
 * by their input paths (`actions.0.title is required; …`), which is for a program, not a person.
 */
function refusalSummary(problem: Problem): string {
  const count = Object.keys(problem.fields).length;
  if (count === 0) return problem.message;
  return count === 1
    ? 'Not saved: one value needs correcting; its message says how.'
    : `Not saved: ${count} values need correcting; each one's message says how.`;
}

/**
 * The message of a failed call. Field-level messages are shown by their fields; the ones
 * whose field is not on the form (`paths` lists those that are) are listed here.
 */
export function ProblemMessage({ problem, paths = [] }: { problem: Problem | null; paths?: string[] }) {
  useEffect(() => {
    if (problem) announce(refusalSummary(problem));
  }, [problem]);
  if (!problem) return null;
  const elsewhere = Object.entries(problem.fields).filter(([path]) => !paths.includes(path));
  return (
    <div className="problem">
      <p>{refusalSummary(problem)}</p>
      {elsewhere.length > 0 ? (
        <ul>
          {elsewhere.map(([path, message]) => (
            <li key={path}>
              <code>{path}</code> {message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
      announce('Copied.');
    } catch {
      setCopied('no');
      announce('Copying is blocked here: select the text instead.');
    }
  };
  return (
    <>
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span className="hint">
        {copied === 'yes'
          ? ' Copied.'
          : copied === 'no'
            ? ' Copying is blocked here: select the text instead.'
            : ''}
      </span>
    </>
  );
}

/** A secret shown once: readable, selectable, copyable, with the warning that it will not come back. */
export function SecretOnce({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <section className="secret" aria-label={title}>
      <h3>{title}</h3>
      <p>Copy it now: it is shown only this once and cannot be read again.</p>
      <p>
        <code className="secret-value" data-testid="secret">
          {secret}
        </code>{' '}
        <CopyButton text={secret} />
      </p>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="hint" aria-busy="true">
      Loading {what}…
    </p>
  );
}

export function formatInstant(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeHeadingFocus()) heading.current?.focus();
  }, []);
  return (
    <header className="page-header">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children ? <div className="actions">{children}</div> : null}
    </header>
  );
}

/**
 * Previous / next over cursor pages: the cursors already visited are kept for going back. A
 * change of `resetOn` (a new folder, search or filter) starts again from the first page.
 */
export function usePager(resetOn = '') {
  const [state, setState] = useState<{ key: string; cursors: (string | undefined)[] }>({
    key: resetOn,
    cursors: [undefined],
  });
  const cursors = state.key === resetOn ? state.cursors : [undefined];
  const set = (next: (c: (string | undefined)[]) => (string | undefined)[]) =>
    setState((s) => ({ key: resetOn, cursors: next(s.key === resetOn ? s.cursors : [undefined]) }));
  return {
    cursor: cursors[cursors.length - 1],
    page: cursors.length,
    next: (nextCursor: string) => set((c) => [...c, nextCursor]),
    previous: () => set((c) => (c.length > 1 ? c.slice(0, -1) : c)),
    reset: () => set(() => [undefined]),
  };
}

export type PagerState = ReturnType<typeof usePager>;

function Pager({ pager, nextCursor }: { pager: PagerState; nextCursor: string | null | undefined }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={pager.previous} disabled={pager.page === 1}>
        Previous page
      </button>
      <span>Page {pager.page}</span>
      <button type="button" onClick={() => nextCursor && pager.next(nextCursor)} disabled={!nextCursor}>
        Next page
      </button>
    </nav>
  );
}

/** What ListView needs of a query: TanStack Query's result of a list procedure fits. */
export interface ListQuery<T> {
  data?: { data: T[]; meta?: { nextCursor?: string | null } } | undefined;
  error: unknown;
  isPending: boolean;
}

/**
 * Every list of the app: the query's problem, "Loading …" the first time, the `empty` text
 * when there is nothing, else `children(rows)`, and the pager when one is given and there is
 * more than one page.
 */
export function ListView<T>({
  query,
  what,
  empty,
  pager,
  children,
}: {
  query: ListQuery<T>;
  /** What is listed, for "Loading …". */
  what: string;
  empty: ReactNode;
  pager?: PagerState;
  children: (rows: T[]) => ReactNode;
}) {
  const rows = query.data?.data;
  const nextCursor = query.data?.meta?.nextCursor;
  return (
    <>
      <ProblemMessage problem={problemOf(query.error)} />
      {rows === undefined ? (
        query.isPending ? (
          <Loading what={what} />
        ) : null
      ) : rows.length === 0 && (!pager || pager.page === 1) ? (
        <p className="empty">{empty}</p>
      ) : (
        children(rows)
      )}
      {pager && rows !== undefined && (pager.page > 1 || nextCursor) ? (
        <Pager pager={pager} nextCursor={nextCursor} />
      ) : null}
    </>
  );
}

/**
 * A modal dialog (the browser's own `<dialog>`, opened with `showModal`): the page behind it
 * is inert, the focus moves into it and goes back where it was when it closes, and Escape
 * closes it. `onClose` hears every way it closes (Escape, the Close button, the caller).
 */
export function Dialog({
  title,
  onClose,
  children,
  className,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const shown = dialog.current;
    if (shown && !shown.open) shown.showModal();
    return () => shown?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      className={`dialog${className ? ` ${className}` : ''}`}
      onClose={onClose}
    >
      <header className="dialog-header">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </header>
      {children}
    </dialog>
  );
}
