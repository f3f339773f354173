import { useMutation } from '@tanstack/react-query';
import { announce } from '../../lib/announcer.tsx';
import { formatInstant, ProblemMessage } from '../../lib/components.tsx';
import { progressText } from '../../lib/job-progress.tsx';
import { apiPath, formatCount, hasEnded, type Job, resultsUrl, statusText } from '../../lib/jobs.ts';
import { api, problemOf, queryClient } from '../../lib/query.ts';

/** What a job is, in words: `Import (CSV)`. */
function kindOf(job: Job): string {
  const kind = { IMPORT: 'Import', EXPORT: 'Export', UPDATE: 'Update' }[job.type];
  return job.format ? `${kind} (${job.format.toUpperCase()})` : kind;
}

/** The rows a job has done, and for an import or an update what became of them. */
function Progress({ job }: { job: Job }) {
  const { total, rowsRead, created, updated, unchanged, refused } = job.progress;
  const unit = job.type === 'IMPORT' ? 'rows' : 'records';
  return (
    <>
      {!hasEnded(job) && job.status !== 'AWAITING_FILE' ? (
        <progress
          max={total && total > 0 ? total : undefined}
          value={total && total > 0 ? Math.min(rowsRead, total) : undefined}
          aria-label={`Progress of ${job.id}`}
          aria-valuetext={progressText(job, unit)}
        />
      ) : null}
      <div>{progressText(job, unit)}</div>
      {job.type !== 'EXPORT' && rowsRead > 0 ? (
        <small className="hint">
          {formatCount(created)} created · {formatCount(updated)} updated · {formatCount(unchanged)} unchanged
          · {formatCount(refused)} refused
        </small>
      ) : null}
    </>
  );
}

/** The links to a job's files: an export's file while it is kept, the results of an import or update that did rows. */
function Files({ job }: { job: Job }) {
  if (job.type === 'EXPORT') {
    if (!job.fileUrl) return null;
    const expired = job.expiresAt !== null && new Date(job.expiresAt).getTime() <= Date.now();
    if (expired) return <small className="hint">file no longer kept (export again)</small>;
    return (
      <>
        <a href={apiPath(job.fileUrl)} download>
          File<span className="visually-hidden"> of {job.id}</span>
        </a>{' '}
        <small className="hint">until {formatInstant(job.expiresAt)}</small>
      </>
    );
  }
  // Results are written as rows are done: none before the first.
  if (job.progress.rowsRead === 0) return null;
  return (
    <a href={resultsUrl(job.id)} download>
      Results<span className="visually-hidden"> of {job.id}</span>
    </a>
  );
}

/** One job of the Jobs page, with Cancel while it has not ended. */
export function JobRow({ job, folder }: { job: Job; folder: string }) {
  const cancel = useMutation(
    api.jobs.cancel.mutationOptions({
      onSuccess: () => announce(`Cancelled ${kindOf(job).toLowerCase()} ${job.id}.`),
      onSettled: () => queryClient.invalidateQueries(api.jobs.list.pathFilter()),
    }),
  );
  return (
    <tr data-job={job.id}>
      <td>
        {kindOf(job)}
        <br />
        <code>{job.id}</code>
      </td>
      <td>{folder}</td>
      <td>
        <span className={`badge ${job.status.toLowerCase()}`}>{statusText(job.status)}</span>
        {job.error ? <small className="field-error"> {job.error.message}</small> : null}
      </td>
      <td>
        <Progress job={job} />
      </td>
      <td>{job.actor.type === 'apiKey' ? `${job.actor.name} (API key)` : job.actor.name}</td>
      <td>
        <time dateTime={job.createdAt}>{formatInstant(job.createdAt)}</time>
        {job.finishedAt ? (
          <small className="hint">
            <br />
            ended <time dateTime={job.finishedAt}>{formatInstant(job.finishedAt)}</time>
          </small>
        ) : null}
      </td>
      <td>
        <Files job={job} />
      </td>
      <td>
        {!hasEnded(job) ? (
          <button type="button" onClick={() => cancel.mutate({ id: job.id })} disabled={cancel.isPending}>
            Cancel<span className="visually-hidden"> {job.id}</span>
          </button>
        ) : null}
        <ProblemMessage problem={problemOf(cancel.error)} />
      </td>
    </tr>
  );
}
