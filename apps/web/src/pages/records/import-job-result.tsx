import { useQuery } from '@tanstack/react-query';
import { Loading, ProblemMessage } from '../../lib/components.tsx';
import { readRefusals } from '../../lib/job-files.ts';
import { progressText } from '../../lib/job-progress.tsx';
import { formatCount, type Job, resultsUrl } from '../../lib/jobs.ts';
import { problemOf } from '../../lib/query.ts';
import { LISTED_REFUSALS } from './import-rows.ts';

/**
 * What an import job did: rows created, updated, unchanged and refused, the first refused rows
 * with their reasons (read from the job's results), and a link to all the results. Rows are
 * numbered as in the batch import's result: the header is row 1.
 */
export function ImportJobResult({ job }: { job: Job }) {
  const { created, updated, unchanged, refused } = job.progress;
  const refusals = useQuery({
    queryKey: ['job-refusals', job.id, job.status],
    queryFn: ({ signal }) => readRefusals(job.id, LISTED_REFUSALS, signal),
    enabled: refused > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const listed = refusals.data ?? [];
  return (
    <section aria-label="Import result" className="import-result">
      <h3>Result</h3>
      {job.status === 'CANCELLED' ? (
        <p>
          Cancelled after {progressText(job, 'rows')}: the rows before that were written, the others were not.
        </p>
      ) : null}
      {job.status === 'FAILED' ? (
        <p className="problem">The import failed: {job.error?.message ?? 'no reason given'}</p>
      ) : null}
      <dl className="facts">
        <dt>Created</dt>
        <dd data-testid="created">{formatCount(created)}</dd>
        <dt>Updated</dt>
        <dd data-testid="updated">{formatCount(updated)}</dd>
        <dt>Unchanged</dt>
        <dd data-testid="unchanged">{formatCount(unchanged)}</dd>
        <dt>Refused</dt>
        <dd data-testid="refused">{formatCount(refused)}</dd>
      </dl>
      <p>
        <a href={resultsUrl(job.id)} download>
          Download all results (NDJSON)
        </a>{' '}
        <small className="hint">
          a line per row, numbered from the first row under the header: created, updated, unchanged or refused
          and why
        </small>
      </p>
      {refused > 0 ? (
        <>
          <ProblemMessage problem={problemOf(refusals.error)} />
          {refusals.isPending ? <Loading what="the refused rows" /> : null}
          {listed.length > 0 ? (
            <table className="refused">
              <caption>
                Refused rows
                {refused > listed.length ? ` (the first ${listed.length} of ${formatCount(refused)})` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {listed.map((r) => (
                  <tr key={r.row}>
                    <td>{r.row + 1}</td>
                    <td>{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
