import type { Outputs } from './query.ts';

/**
 * Jobs as the web app shows them (docs/web-app.md, "Jobs"; docs/jobs.md): imports and exports
 * the server works through on its own, a chunk at a time, while the page follows their
 * progress.
 */

export type Job = Outputs['jobs']['get']['data'];
export type JobStatus = Job['status'];
export type JobType = Job['type'];

/** Statuses after which a job does nothing more. */
const ENDED: ReadonlySet<JobStatus> = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

export function hasEnded(job: Pick<Job, 'status'>): boolean {
  return ENDED.has(job.status);
}

/** How often a page asks again for a job that has not ended. */
export const JOB_POLL_MS = 1000;

/** The REST path of a job's route: its answers give paths under /api/v1 (`/jobs/job_…/file`). */
export function apiPath(path: string): string {
  return `/api/v1${path}`;
}

/** Where a job's results are read: one NDJSON line per row done (docs/jobs.md, "Results"). */
export function resultsUrl(jobId: string): string {
  return apiPath(`/jobs/${encodeURIComponent(jobId)}/results`);
}

/** A status in words, as the pages show it. */
export function statusText(status: JobStatus): string {
  return status === 'AWAITING_FILE' ? 'awaiting its file' : status.toLowerCase();
}

/** `1.4 MB`, `820 KB`: a file's size for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 'bytes';
  for (const next of units) {
    if (value < 1000) break;
    value /= 1000;
    unit = next;
  }
  return `${value.toLocaleString(undefined, { maximumFractionDigits: 1 })} ${unit}`;
}

/** A count for people: `12,400`. */
export function formatCount(n: number): string {
  return n.toLocaleString();
}
