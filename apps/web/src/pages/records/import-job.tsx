import { useId, useMemo, useRef, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { ProblemMessage } from '../../lib/components.tsx';
import { JobFileError, MAX_JOB_FILE_BYTES, uploadJobFile } from '../../lib/job-files.ts';
import { formatBytes } from '../../lib/jobs.ts';
import { type Problem, toProblem, trpc } from '../../lib/trpc.ts';
import { guardedCells, importJobInput } from './import-job-input.ts';
import { ImportJobRun } from './import-job-run.tsx';
import type { Target } from './import-rows.ts';
import type { Folder } from './model.ts';

type Stage =
  | { kind: 'ready' }
  | { kind: 'uploading'; jobId: string; sent: number }
  | { kind: 'running'; jobId: string };

/**
 * The import of a large file, through a job (docs/web-app.md, "CSV import and export"): makes
 * the job with the panel's mapping (`jobs.createImport`), sends the file itself as it is on
 * the disk (`PUT /api/v1/jobs/{id}/file`, with a bar of the bytes sent), then follows the job
 * (ImportJobRun). A file the server refuses (400 naming the row, 413 …) shows its message, and
 * its job is cancelled; Cancel stops the upload or the job.
 */
export function ImportJob({
  folder,
  file,
  header,
  rows,
  mapping,
  targets,
  blocked,
  onBusy,
  onClose,
}: {
  folder: Folder;
  file: File;
  /** The file's header, each name as written ('' for a blank one). */
  header: string[];
  /** The rows the panel read from the start of the file. */
  rows: string[][];
  mapping: string[];
  targets: Target[];
  /** The panel's own checks of the mapping failed (no title, a field twice). */
  blocked: boolean;
  onBusy: (busy: boolean) => void;
  onClose: () => void;
}) {
  const [upsert, setUpsert] = useState(true);
  const [stage, setStage] = useState<Stage>({ kind: 'ready' });
  const [problem, setProblem] = useState<Problem | null>(null);
  const abort = useRef<AbortController | null>(null);
  const id = useId();
  const made = importJobInput({ folderId: folder.id, header, mapping, targets, upsertByEmail: upsert });
  const emailed = mapping.includes('email');
  const lists = mapping.some((key) => targets.find((t) => t.key === key)?.field?.type === 'MULTI_SELECT');
  const guarded = useMemo(() => guardedCells(rows, mapping), [rows, mapping]);
  const tooLarge = file.size > MAX_JOB_FILE_BYTES;

  const start = async () => {
    if (!made.input) return;
    setProblem(null);
    onBusy(true);
    let jobId: string | null = null;
    try {
      const job = (await trpc.jobs.createImport.mutate(made.input)).data;
      jobId = job.id;
      if (!job.uploadUrl) throw new Error(`The job ${job.id} takes no file: it is ${job.status}`);
      abort.current = new AbortController();
      setStage({ kind: 'uploading', jobId, sent: 0 });
      announce(`Sending ${file.name} (${formatBytes(file.size)}) to the server…`);
      await uploadJobFile({
        uploadUrl: job.uploadUrl,
        file,
        mediaType: 'text/csv',
        signal: abort.current.signal,
        onProgress: (sent) => setStage({ kind: 'uploading', jobId: job.id, sent }),
      });
      setStage({ kind: 'running', jobId });
    } catch (error) {
      const refused = error instanceof JobFileError ? error.problem : toProblem(error);
      setProblem({
        ...refused,
        message: jobId
          ? `The file was not imported. ${refused.message}${/[.!?]$/.test(refused.message) ? '' : '.'} Nothing of it was written.`
          : refused.message,
      });
      setStage({ kind: 'ready' });
      onBusy(false);
      // A job whose file was refused would wait a day for another: it is ended now.
      if (jobId) await trpc.jobs.cancel.mutate({ id: jobId }).catch(() => undefined);
    } finally {
      abort.current = null;
    }
  };

  if (stage.kind === 'running') {
    return <ImportJobRun jobId={stage.jobId} onEnded={() => onBusy(false)} onClose={onClose} />;
  }

  const uploading = stage.kind === 'uploading';
  return (
    <>
      <p className="hint" data-testid="import-by-job">
        {file.name} is {formatBytes(file.size)}: it is sent to the server as it is and imported there, as a
        job. The preview above checks the rows in its first megabyte; the server checks every row.
      </p>
      {emailed ? (
        <label className="check">
          <input
            type="checkbox"
            checked={upsert}
            disabled={uploading}
            onChange={(e) => setUpsert(e.target.checked)}
          />{' '}
          Rows with the email of a record of this folder update it
        </label>
      ) : null}
      {lists ? (
        <p className="hint">A multiple-choice cell separates its options with “;” in an import this large.</p>
      ) : null}
      {guarded > 0 ? (
        <p className="hint">
          {guarded} cells of the first rows start with a ' before =, +, - or @ (as Export CSV writes them): an
          import this large keeps it as part of the value.
        </p>
      ) : null}
      {tooLarge ? <p className="field-error">The file is larger than the 1 GiB an import takes.</p> : null}
      {made.problems.map((p) => (
        <p className="field-error" key={p}>
          {p}
        </p>
      ))}
      <ProblemMessage problem={problem} />
      {uploading ? (
        <div className="field">
          <label htmlFor={`${id}-upload`}>File sent</label>
          <progress id={`${id}-upload`} max={file.size} value={stage.sent}>
            {formatBytes(stage.sent)} of {formatBytes(file.size)}
          </progress>
          <small className="hint">
            {formatBytes(stage.sent)} of {formatBytes(file.size)}; the server checks the file as it arrives
          </small>
        </div>
      ) : null}
      <div className="actions">
        <button
          type="button"
          className="primary"
          onClick={start}
          disabled={uploading || blocked || tooLarge || !made.input}
        >
          Import all rows ({formatBytes(file.size)})
        </button>
        {uploading ? (
          <button type="button" onClick={() => abort.current?.abort()}>
            Cancel the import
          </button>
        ) : (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
    </>
  );
}
