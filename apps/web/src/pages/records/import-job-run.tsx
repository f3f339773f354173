import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Loading, ProblemMessage } from '../../lib/components.tsx';
import { JobProgress, progressText, useJob, useJobAnnouncements } from '../../lib/job-progress.tsx';
import { formatCount, hasEnded, type Job } from '../../lib/jobs.ts';
import { api, problemOf, queryClient } from '../../lib/query.ts';
import { Link } from '../../lib/router.tsx';
import { ImportJobResult } from './import-job-result.tsx';

/** The status line's words for an import job that ended. */
function describeEnd(job: Job): string {
  const { created, updated, unchanged, refused } = job.progress;
  const counts = `${formatCount(created)} created, ${formatCount(updated)} updated, ${formatCount(unchanged)} unchanged, ${formatCount(refused)} refused`;
  if (job.status === 'SUCCEEDED') return `Import finished: ${counts}.`;
  if (job.status === 'CANCELLED') return `Import cancelled after ${progressText(job, 'rows')}: ${counts}.`;
  return `The import failed: ${job.error?.message ?? 'no reason given'}.`;
}

/**
 * An import job on its way: its progress bar (`jobs.get` every second), Cancel
 * (`jobs.cancel`) while it has not ended, and its result once it has. The panel may be closed
 * meanwhile: the job goes on, and the Jobs page follows it.
 */
export function ImportJobRun({
  jobId,
  onEnded,
  onClose,
}: {
  jobId: string;
  onEnded: () => void;
  onClose: () => void;
}) {
  const read = useJob(jobId);
  const job = read.data?.data;
  const ended = job ? hasEnded(job) : false;
  const cancel = useMutation(
    api.jobs.cancel.mutationOptions({
      onSuccess: (answer) => queryClient.setQueryData(api.jobs.get.queryKey({ id: jobId }), answer),
      // Ended meanwhile (409): read it again.
      onError: () => queryClient.invalidateQueries(api.jobs.get.queryFilter({ id: jobId })),
    }),
  );
  useJobAnnouncements(job, { what: 'import', unit: 'rows', describeEnd });
  // Once, when the job ends (the caller's callback may be a new function on every render).
  const ending = useRef(onEnded);
  ending.current = onEnded;
  useEffect(() => {
    if (!ended) return;
    ending.current();
    void queryClient.invalidateQueries(api.records.list.pathFilter());
    void queryClient.invalidateQueries(api.jobs.list.pathFilter());
  }, [ended]);

  return (
    <>
      <ProblemMessage problem={problemOf(read.error)} />
      <ProblemMessage problem={problemOf(cancel.error)} />
      {job ? <JobProgress job={job} label="Rows imported" unit="rows" /> : <Loading what="the import" />}
      {job && ended ? <ImportJobResult job={job} /> : null}
      <div className="actions">
        {job && !ended ? (
          <button type="button" onClick={() => cancel.mutate({ id: jobId })} disabled={cancel.isPending}>
            Cancel the import
          </button>
        ) : null}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {!ended ? (
        <p className="hint">
          The server imports the file on its own: this panel can be closed, and{' '}
          <Link to="/settings/jobs">Jobs</Link> follows the import.
        </p>
      ) : null}
    </>
  );
}
