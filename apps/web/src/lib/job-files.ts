import { apiPath, type Job, resultsUrl } from './jobs.ts';
import { currentCsrfToken, type Problem } from './trpc.ts';

/**
 * A job's files go up and come down through the REST routes (docs/jobs.md, "Files"), with the
 * session cookie: an upload sends the CSRF token as /trpc does; a download needs the cookie
 * alone, so a plain link works.
 */

/** The largest file an import takes (docs/jobs.md, "Files"): a larger one is refused before it is sent. */
export const MAX_JOB_FILE_BYTES = 1024 * 1024 * 1024;

/** A failed upload or read, with the server's error body when it sent one. */
export class JobFileError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
}

/** The problem of a REST error answer (`{ "error": { message, details } }`), or of its status alone. */
function problemOfAnswer(status: number, text: string): Problem {
  let body: { error?: { message?: string } } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  // The file routes' details (`row 17`, `header`) restate the message, which names the row.
  const message =
    body?.error?.message ??
    (status === 413
      ? 'The file is larger than the 1 GiB an import takes.'
      : status === 401
        ? 'Your session has ended; sign in again.'
        : `The server answered ${status}.`);
  return { message, fields: {}, status };
}

/**
 * Sends an import's file as the body of `PUT /api/v1/jobs/{id}/file` (`uploadUrl`), streamed
 * by the browser from the disk, never read into the page. Through XMLHttpRequest rather than
 * fetch, which tells nothing of an upload's progress: `onProgress` hears the bytes sent. The
 * answer is the job, QUEUED; a refusal (400 naming the row, 413, 415 …) throws a JobFileError
 * with the server's message. `signal` aborts the upload.
 */
export function uploadJobFile({
  uploadUrl,
  file,
  mediaType,
  onProgress,
  signal,
}: {
  uploadUrl: string;
  file: Blob;
  mediaType: 'text/csv' | 'application/x-ndjson';
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}): Promise<Job> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', apiPath(uploadUrl));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', mediaType);
    xhr.setRequestHeader('X-CSRF-Token', currentCsrfToken());
    xhr.upload.onprogress = (event) =>
      onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve((JSON.parse(xhr.responseText) as { data: Job }).data);
        } catch {
          reject(
            new JobFileError({
              message: 'The server’s answer could not be read.',
              fields: {},
              status: xhr.status,
            }),
          );
        }
        return;
      }
      reject(new JobFileError(problemOfAnswer(xhr.status, xhr.responseText)));
    };
    xhr.onerror = () =>
      reject(
        new JobFileError({
          message:
            'The upload was cut off before the server answered (the network, or the server went away).',
          fields: {},
          status: null,
        }),
      );
    xhr.onabort = () =>
      reject(new JobFileError({ message: 'The upload was stopped.', fields: {}, status: null }));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** A row a job refused, as its results say (docs/jobs.md, "Results"). */
interface Refusal {
  /** The row's number in the file, the header not counted. */
  row: number;
  reason: string;
}

interface ResultLine {
  row: number;
  status: string;
  errors?: { path: string; message: string }[];
}

/** A refused row's errors as one line: `data.score must be a number; email must be an email address`. */
function reasonOfLine(line: ResultLine): string {
  const errors = line.errors ?? [];
  if (errors.length === 0) return 'refused';
  return errors.map((e) => (e.path ? `${e.path} ${e.message}` : e.message)).join('; ');
}

/**
 * The first `limit` rows a job refused, read from its results (`GET /api/v1/jobs/{id}/results`)
 * as they stream: the reading stops once it has them, so a million-row job's results are not
 * read whole for a page that shows two hundred.
 */
export async function readRefusals(jobId: string, limit: number, signal?: AbortSignal): Promise<Refusal[]> {
  const res = await fetch(resultsUrl(jobId), { credentials: 'same-origin', ...(signal ? { signal } : {}) });
  if (!res.ok || !res.body) throw new JobFileError(problemOfAnswer(res.status, await res.text()));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const found: Refusal[] = [];
  let pending = '';
  const take = (text: string) => {
    // Only a refusal's line is parsed: most lines are not.
    if (!text.includes('"refused"')) return;
    const line = JSON.parse(text) as ResultLine;
    if (line.status === 'refused') found.push({ row: line.row, reason: reasonOfLine(line) });
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const lines = (pending + value).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        take(line);
        if (found.length >= limit) return found;
      }
    }
    if (pending.trim() !== '') take(pending);
    return found.slice(0, limit);
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
