import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { formatInstant, Loading, ProblemMessage, SelectField } from '../../lib/components.tsx';
import { JobProgress, progressText, useJob, useJobAnnouncements } from '../../lib/job-progress.tsx';
import { apiPath, formatCount, hasEnded, type Job } from '../../lib/jobs.ts';
import { api, problemOf, queryClient } from '../../lib/query.ts';
import { Link } from '../../lib/router.tsx';
import { exportJobInput } from './export-job-input.ts';
import type { Folder, ViewDefinition } from './model.ts';

type Format = 'csv' | 'ndjson';

/** The status line's words for an export job that ended. */
function describeEnd(job: Job): string {
  if (job.status === 'SUCCEEDED')
    return `Export finished: ${formatCount(job.progress.rowsRead)} records, ready to download.`;
  if (job.status === 'CANCELLED') return `Export cancelled after ${progressText(job, 'records')}.`;
  return `The export failed: ${job.error?.message ?? 'no reason given'}.`;
}

/**
 * Exporting every record the view covers through a job (docs/web-app.md, "CSV import and
 * export"): the view's filters, search and sort, no page limit, written to a file by the
 * server (`jobs.createExport`), with its progress, Cancel, and the file's link once it is
 * ready (`GET /api/v1/jobs/{id}/file`).
 */
export function ExportJobPanel({
  folder,
  view,
  search,
  onClose,
}: {
  folder: Folder;
  view: ViewDefinition;
  search: string;
  onClose: () => void;
}) {
  const [format, setFormat] = useState<Format>('csv');
  const [jobId, setJobId] = useState<string | null>(null);
  const headingId = useId();
  const start = useMutation(
    api.jobs.createExport.mutationOptions({
      onSuccess: (answer) => {
        setJobId(answer.data.id);
        announce(`Export of ${folder.name} started.`);
        void queryClient.invalidateQueries(api.jobs.list.pathFilter());
      },
    }),
  );
  const narrowed = view.filters.length > 0 || search !== '';
  const fields = exportJobInput({ folder, view, search, format }).fields ?? [];
  return (
    <section className="card export-job" aria-labelledby={headingId}>
      <h2 id={headingId}>Export {folder.name} through a job</h2>
      <p>
        {narrowed ? 'Every record the search and filters match' : 'Every record of the folder'}
        {view.sort ? ', in the table’s order' : ', newest first'}: all pages, written to a file by the server.
        Its columns are id, title, email, phone, ownerId, createdAt and updatedAt, then{' '}
        {fields.length > 0 ? `the view’s fields (${fields.map((f) => f.slice(5)).join(', ')})` : 'no field'}{' '}
        by key.
      </p>
      <ProblemMessage problem={problemOf(start.error)} />
      {jobId ? (
        <ExportJobRun key={jobId} jobId={jobId} folderName={folder.name} />
      ) : (
        <SelectField
          label="Format"
          value={format}
          onChange={(e) => setFormat(e.target.value as Format)}
          options={[
            { value: 'csv', label: 'CSV (a header row, then a row per record)' },
            { value: 'ndjson', label: 'NDJSON (a JSON object per line)' },
          ]}
        />
      )}
      <div className="actions">
        {jobId ? null : (
          <button
            type="button"
            className="primary"
            onClick={() => start.mutate(exportJobInput({ folder, view, search, format }))}
            disabled={start.isPending}
          >
            Start the export
          </button>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}

/** An export job on its way: its progress, Cancel, then the link to its file. */
function ExportJobRun({ jobId, folderName }: { jobId: string; folderName: string }) {
  const read = useJob(jobId);
  const job = read.data?.data;
  const cancel = useMutation(
    api.jobs.cancel.mutationOptions({
      onSuccess: (answer) => queryClient.setQueryData(api.jobs.get.queryKey({ id: jobId }), answer),
      onError: () => queryClient.invalidateQueries(api.jobs.get.queryFilter({ id: jobId })),
    }),
  );
  useJobAnnouncements(job, { what: 'export', unit: 'records', describeEnd });
  if (!job) {
    return (
      <>
        <ProblemMessage problem={problemOf(read.error)} />
        <Loading what="the export" />
      </>
    );
  }
  return (
    <>
      <ProblemMessage problem={problemOf(read.error)} />
      <ProblemMessage problem={problemOf(cancel.error)} />
      <JobProgress job={job} label="Records exported" unit="records" />
      {!hasEnded(job) ? (
        <div className="actions">
          <button type="button" onClick={() => cancel.mutate({ id: jobId })} disabled={cancel.isPending}>
            Cancel the export
          </button>
        </div>
      ) : null}
      {job.status === 'SUCCEEDED' && job.fileUrl ? (
        <p>
          <a href={apiPath(job.fileUrl)} download>
            Download the {job.format === 'ndjson' ? 'NDJSON' : 'CSV'} file of {folderName} (
            {formatCount(job.progress.rowsRead)} records)
          </a>{' '}
          <small className="hint">kept until {formatInstant(job.expiresAt)}</small>
        </p>
      ) : null}
      {job.status === 'FAILED' ? (
        <p className="problem">The export failed: {job.error?.message ?? 'no reason given'}</p>
      ) : null}
      {!hasEnded(job) ? (
        <p className="hint">
          This panel can be closed: the export goes on, and <Link to="/settings/jobs">Jobs</Link> offers its
          file once it is ready.
        </p>
      ) : null}
    </>
  );
}
