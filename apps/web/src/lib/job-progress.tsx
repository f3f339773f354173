import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { announce } from './announcer.tsx';
import { formatCount, hasEnded, JOB_POLL_MS, type Job, statusText } from './jobs.ts';
import { api } from './query.ts';

/**
 * Following one job: `jobs.get` asked again every second until the job ends, its progress
 * as a bar, and its status changes said on the status line.
 */

/** The job, read again every second while it has not ended. */
export function useJob(id: string) {
  return useQuery({
    ...api.jobs.get.queryOptions({ id }),
    refetchInterval: (query) => {
      const job = query.state.data?.data;
      return job && hasEnded(job) ? false : JOB_POLL_MS;
    },
  });
}

/** `12,000 of 15,000 rows`, or `12,000 rows` while the total is not known. */
export function progressText(job: Job, unit: string): string {
  const { rowsRead, total } = job.progress;
  return total === null
    ? `${formatCount(rowsRead)} ${unit}`
    : `${formatCount(rowsRead)} of ${formatCount(total)} ${unit}`;
}

/**
 * A job's progress bar: rows done of the total once the server knows it (before that the bar
 * moves without a value), with the status under it.
 */
export function JobProgress({ job, label, unit }: { job: Job; label: string; unit: string }) {
  const id = useId();
  const { rowsRead, total } = job.progress;
  const known = total !== null && total > 0;
  return (
    <div className="field job-progress">
      <label htmlFor={id}>{label}</label>
      <progress
        id={id}
        max={known ? total : undefined}
        value={known ? Math.min(rowsRead, total) : hasEnded(job) ? 1 : undefined}
        aria-valuetext={progressText(job, unit)}
      >
        {progressText(job, unit)}
      </progress>
      <small className="hint" data-testid="job-progress">
        {progressText(job, unit)} · {statusText(job.status)}
      </small>
    </div>
  );
}

/**
 * Says a job's progress on the status line: when it starts running, at each quarter of its
 * rows, and when it ends (`describeEnd` words the end).
 */
export function useJobAnnouncements(
  job: Job | undefined,
  { what, unit, describeEnd }: { what: string; unit: string; describeEnd: (job: Job) => string },
): void {
  const said = useRef<{ status: string | null; quarter: number }>({ status: null, quarter: 0 });
  useEffect(() => {
    if (!job) return;
    const last = said.current;
    if (job.status !== last.status) {
      last.status = job.status;
      if (hasEnded(job)) announce(describeEnd(job));
      else if (job.status === 'RUNNING') announce(`The ${what} is running.`);
      else if (job.status === 'QUEUED') announce(`The ${what} is queued.`);
      return;
    }
    const { rowsRead, total } = job.progress;
    if (job.status !== 'RUNNING' || !total) return;
    const quarter = Math.floor((rowsRead / total) * 4);
    if (quarter > last.quarter && rowsRead < total) {
      last.quarter = quarter;
      announce(`${what[0]?.toUpperCase()}${what.slice(1)}: ${progressText(job, unit)} done.`);
    }
  }, [job, what, unit, describeEnd]);
}
