import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { announce } from '../lib/announcer.tsx';
import { Field, FolderList, ListView, PageHeader, ProblemMessage, usePager } from '../lib/components.tsx';
import { downloadCsv } from '../lib/download.ts';
import { api, problemOf } from '../lib/query.ts';
import { Link, navigate } from '../lib/router.tsx';
import { toProblem } from '../lib/trpc.ts';
import { BulkActions } from './records/bulk.tsx';
import { ColumnPicker, FilterBar, ViewsBar } from './records/controls.tsx';
import { exportView } from './records/export.ts';
import { ExportJobPanel } from './records/export-job.tsx';
import { ImportPanel } from './records/import.tsx';
import {
  columnsOf,
  defaultDefinition,
  expandOf,
  type Folder,
  listInput,
  type SavedView,
  type ViewDefinition,
} from './records/model.ts';
import { RecordsTable } from './records/table.tsx';

/**
 * Folders on the left; on the right the chosen folder's records as a table (docs/web-app.md,
 * "Records table"): saved views, columns, sort, filters, search, cells edited in place,
 * selected rows trashed or given an owner at once, CSV import and export (in the browser, or
 * through a job for large files and whole folders), and a form to add a record.
 */
export function RecordsPage() {
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const [folderId, setFolderId] = useState<string | null>(null);
  const folder = folders.data?.data.find((f) => f.id === folderId) ?? folders.data?.data[0];
  return (
    <>
      <PageHeader title="Records" />
      <ProblemMessage problem={problemOf(folders.error)} />
      <div className="split">
        <nav aria-label="Folders" className="folders">
          <h2>Folders</h2>
          <FolderList folders={folders.data?.data} current={folder?.id} onChoose={setFolderId} />
          {folder ? (
            <Link to={`/settings/folders?folder=${encodeURIComponent(folder.id)}`} className="folder-fields">
              Fields of {folder.name}
            </Link>
          ) : null}
        </nav>
        {/* A folder of its own starts with its own view, selection and pages. */}
        {folder ? <FolderRecords key={folder.id} folder={folder} /> : null}
      </div>
    </>
  );
}

function FolderRecords({ folder }: { folder: Folder }) {
  const columns = useMemo(() => columnsOf(folder), [folder]);
  const [view, setView] = useState<ViewDefinition>(() => defaultDefinition(folder));
  const [picked, setPicked] = useState<SavedView | null>(null);
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [importing, setImporting] = useState(false);
  const [exportingByJob, setExportingByJob] = useState(false);
  const [exporting, setExporting] = useState<number | null>(null);
  const members = useQuery(api.workspace.members.queryOptions({ pageSize: 200 }));
  const memberList = members.data?.data ?? [];
  const pager = usePager(JSON.stringify([view.sort, view.filters, applied]));
  // A selection belongs to the page it was made on.
  useEffect(() => setSelected(new Set()), [pager.cursor]);
  const shown = view.columns.flatMap((key) => columns.filter((c) => c.key === key));
  // The records ONE relation columns link to come with the page (`expand`): no request per row.
  const input = listInput(folder.id, view, applied, pager.cursor, undefined, expandOf(shown));
  const records = useQuery({ ...api.records.list.queryOptions(input), placeholderData: keepPreviousData });
  const rows = records.data?.data ?? [];

  const change = (next: Partial<ViewDefinition>) => {
    setView((v) => ({ ...v, ...next }));
    setSelected(new Set());
  };
  const pick = (saved: SavedView | null) => {
    setPicked(saved);
    change(saved ? saved.definition : defaultDefinition(folder));
    if (saved) announce(`Showing the view “${saved.name}”.`);
  };
  const select = (ids: string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setApplied(search.trim());
    setSelected(new Set());
  };
  const onExport = async () => {
    setExporting(0);
    try {
      const { csv, rows } = await exportView({
        folderId: folder.id,
        view,
        search: applied,
        columns: shown,
        members: memberList,
        onProgress: setExporting,
      });
      const name = `${(picked?.name ?? folder.name).replace(/[^\w -]+/g, '').trim() || 'records'}.csv`;
      downloadCsv(name, csv);
      announce(`Exported ${rows} record${rows === 1 ? '' : 's'} to ${name}.`);
    } catch (error) {
      announce(`The export failed: ${toProblem(error).message}`);
    } finally {
      setExporting(null);
    }
  };

  return (
    <section aria-label={`Records in ${folder.name}`} className="grow">
      <ViewsBar folderId={folder.id} view={view} picked={picked} onPick={pick} />
      <div className="toolbar">
        <search>
          <form onSubmit={onSearch} className="inline">
            <Field
              label="Search"
              type="search"
              placeholder="Title, email, phone or text field"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <button type="submit">Search</button>
          </form>
        </search>
        <ColumnPicker columns={columns} shown={view.columns} onChange={(columns) => change({ columns })} />
        <button type="button" onClick={() => setImporting((on) => !on)} aria-expanded={importing}>
          Import CSV
        </button>
        <button type="button" onClick={onExport} disabled={exporting !== null}>
          {exporting === null ? 'Export CSV' : `Exporting… ${exporting} rows`}
        </button>
        <button type="button" onClick={() => setExportingByJob((on) => !on)} aria-expanded={exportingByJob}>
          Export all (job)
        </button>
      </div>
      <FilterBar
        columns={columns}
        filters={view.filters}
        members={memberList}
        onChange={(filters) => change({ filters })}
      />
      {importing ? <ImportPanel folder={folder} onClose={() => setImporting(false)} /> : null}
      {exportingByJob ? (
        <ExportJobPanel
          folder={folder}
          view={view}
          search={applied}
          onClose={() => setExportingByJob(false)}
        />
      ) : null}
      <BulkActions
        selected={rows.filter((r) => selected.has(r.id))}
        members={memberList}
        onDone={() => setSelected(new Set())}
      />
      <ListView
        query={records}
        what="records"
        pager={pager}
        empty={
          applied || view.filters.length > 0
            ? 'No records match the search and filters.'
            : 'No records in this folder yet.'
        }
      >
        {(page) => (
          <RecordsTable
            records={page}
            columns={shown}
            view={view}
            members={memberList}
            selected={selected}
            onSelect={select}
            onSort={(sort) => change({ sort })}
          />
        )}
      </ListView>
      <CreateRecordForm folderId={folder.id} />
    </section>
  );
}

function CreateRecordForm({ folderId }: { folderId: string }) {
  const [title, setTitle] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const submit = useMutation(
    api.records.create.mutationOptions({
      onSuccess: (created) => navigate(`/records/${created.data.id}`),
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate({
      folderId,
      title,
      ...(email ? { email } : {}),
      ...(phone ? { phone } : {}),
    });
  };
  const problem = problemOf(submit.error);
  const fields = problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Add a record" noValidate>
      <h2>Add a record</h2>
      <ProblemMessage problem={problem} paths={['title', 'email', 'phone']} />
      <div className="row">
        <Field
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={fields.title}
          required
        />
        <Field
          label="Email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fields.email}
        />
        <Field label="Phone" value={phone} onChange={(e) => setPhone(e.target.value)} error={fields.phone} />
      </div>
      <button type="submit" disabled={submit.isPending}>
        Add record
      </button>
    </form>
  );
}
