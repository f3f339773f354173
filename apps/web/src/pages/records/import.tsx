import { useQueries, useQuery } from '@tanstack/react-query';
import { type ChangeEvent, useId, useMemo, useState } from 'react';
import { announce } from '../../lib/announcer.tsx';
import { ProblemMessage, SelectField } from '../../lib/components.tsx';
import { type CsvFile, parseCsv, readCell, readCsvHead, toCsv } from '../../lib/csv.ts';
import { downloadCsv } from '../../lib/download.ts';
import { formatBytes } from '../../lib/jobs.ts';
import { api, queryClient } from '../../lib/query.ts';
import { describeProblems } from '../../lib/record-checks.ts';
import { importTrpc, type Problem, toProblem, trpc } from '../../lib/trpc.ts';
import { ImportJob } from './import-job.tsx';
import { JOB_IMPORT_BYTES } from './import-job-input.ts';
import {
  guessMapping,
  type ImportResult,
  importRows,
  LISTED_REFUSALS,
  MAX_CHECKED_NAMES,
  matchNames,
  pathOf,
  type RelationMatches,
  repeatedTargets,
  rowProblems,
  type Target,
  targetsOf,
} from './import-rows.ts';
import type { Folder } from './model.ts';

/** Rows the preview shows. */
const PREVIEW_ROWS = 10;
/** Rows the preview lists as failing its checks. */
const LISTED_PROBLEMS = 20;

/** A file the panel read: all of it, or for a large one (`large`) the rows of its start. */
type ChosenFile = CsvFile & {
  name: string;
  serial: number;
  /** A file above JOB_IMPORT_BYTES, imported through a job: the file itself and its header as written. */
  large: { file: File; header: string[] } | null;
};

/**
 * Importing a CSV file into the folder (docs/web-app.md, "CSV import and export"): choose the
 * file, say which record field each column fills (guessed from the headers), look at the first
 * rows with each value judged as the server would judge it, then import: batches of 100 rows,
 * upserted by email, with a progress bar. The result counts what was created, updated and
 * refused, lists each refused row with its reason, and offers them as a CSV file to fix and
 * import again. A column may fill a relation to one record by the linked record's title or
 * email; the preview looks the names up in the field's folder and says which rows name no
 * record, or several, which the server refuses.
 *
 * A file larger than JOB_IMPORT_BYTES is not read whole: the preview takes the rows of its
 * start, and the file goes to the server as an import job (ImportJob).
 */
export function ImportPanel({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const targets = useMemo(() => targetsOf(folder.fields), [folder.fields]);
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [mapping, setMapping] = useState<string[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [jobBusy, setJobBusy] = useState(false);
  const fileId = useId();

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setResult(null);
    setProgress(null);
    setProblem(null);
    if (!chosen) return;
    const large = chosen.size > JOB_IMPORT_BYTES;
    const head = large ? await readCsvHead(chosen, JOB_IMPORT_BYTES) : null;
    const parsed = head ?? parseCsv(await chosen.text());
    if (parsed.columns.length === 0 || parsed.rows.length === 0) {
      setFile(null);
      setProblem({ message: `${chosen.name} holds no rows under a header row.`, fields: {}, status: null });
      return;
    }
    setFile((last) => ({
      columns: parsed.columns,
      rows: parsed.rows,
      name: chosen.name,
      serial: (last?.serial ?? 0) + 1,
      large: head ? { file: chosen, header: head.header } : null,
    }));
    setMapping(guessMapping(parsed.columns, targets));
    announce(
      large
        ? `${chosen.name} is ${formatBytes(chosen.size)}: read the first ${parsed.rows.length} rows and ${parsed.columns.length} columns; the file is imported as a job.`
        : `Read ${parsed.rows.length} rows and ${parsed.columns.length} columns from ${chosen.name}.`,
    );
  };

  const repeated = repeatedTargets(mapping);
  const titled = mapping.includes('title');
  const running = (progress !== null && result === null) || jobBusy;

  const onImport = async () => {
    if (!file) return;
    setProgress(0);
    setResult(null);
    setProblem(null);
    announce(`Importing ${file.rows.length} rows…`);
    let said = 0;
    try {
      const done = await importRows({
        folderId: folder.id,
        rows: file.rows,
        mapping,
        targets,
        send: (input) => importTrpc.records.batchCreate.mutate(input),
        retry: {
          statusOf: (error) => toProblem(error).status,
          wait: (seconds) => {
            announce(`The server is busy; trying again in ${seconds} seconds.`);
            return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          },
        },
        onProgress: (n) => {
          setProgress(n);
          // Said at each quarter, not after every batch.
          const quarter = Math.floor((n / file.rows.length) * 4);
          if (quarter > said && n < file.rows.length) {
            said = quarter;
            announce(`Imported ${n} of ${file.rows.length} rows.`);
          }
        },
      });
      setResult(done);
      announce(
        `Import finished: ${done.created} created, ${done.updated} updated, ${done.refused.length} refused.`,
      );
    } catch (error) {
      setProblem(toProblem(error));
      setProgress(null);
    } finally {
      await queryClient.invalidateQueries(api.records.list.pathFilter());
    }
  };

  const downloadRefused = () => {
    if (!file || !result) return;
    const rows = [[...file.columns, 'reason'], ...result.refused.map((r) => [...r.row, r.reason])];
    downloadCsv(file.name.replace(/(\.csv)?$/i, '-refused.csv'), toCsv(rows));
  };

  return (
    <section className="card import" aria-labelledby={`${fileId}-heading`}>
      <h2 id={`${fileId}-heading`}>Import records from CSV into {folder.name}</h2>
      <div className="field">
        <label htmlFor={fileId}>CSV file</label>
        <input id={fileId} type="file" accept=".csv,text/csv" onChange={onFile} disabled={running} />
        <small className="hint">
          The first row names the columns. Rows with an email update the record of this folder with that
          email; the others are created. A file larger than {formatBytes(JOB_IMPORT_BYTES)} is imported by the
          server, as a job.
        </small>
      </div>
      <ProblemMessage problem={problem} />
      {file ? (
        <>
          <h3>Columns</h3>
          <div className="grid mapping">
            {file.columns.map((column, i) => (
              <SelectField
                key={i}
                label={`Column “${column}”`}
                value={mapping[i] ?? ''}
                disabled={running}
                error={
                  mapping[i] && repeated.includes(mapping[i])
                    ? 'Another column fills this field too.'
                    : undefined
                }
                onChange={(e) => setMapping((m) => m.map((key, j) => (j === i ? e.target.value : key)))}
                options={[
                  { value: '', label: '(do not import)' },
                  ...targets.map((t) => ({ value: t.key, label: t.label })),
                ]}
              />
            ))}
          </div>
          {!titled ? (
            <p className="field-error">Choose the column that holds the title: every record needs one.</p>
          ) : null}
          {targets.some((t) => t.by) ? (
            <p className="hint">
              A relation column names the linked record by its title (exactly as written) or its email; a row
              whose name matches no record of that folder, or several, is refused.
            </p>
          ) : null}
          <Preview file={file} mapping={mapping} targets={targets} />
          {file.large ? (
            <ImportJob
              key={file.serial}
              folder={folder}
              file={file.large.file}
              header={file.large.header}
              rows={file.rows}
              mapping={mapping}
              targets={targets}
              blocked={!titled || repeated.length > 0}
              onBusy={setJobBusy}
              onClose={onClose}
            />
          ) : (
            <div className="actions">
              <button
                type="button"
                className="primary"
                onClick={onImport}
                disabled={running || !titled || repeated.length > 0}
              >
                Import {file.rows.length} rows
              </button>
              <button type="button" onClick={onClose} disabled={running}>
                Close
              </button>
            </div>
          )}
        </>
      ) : (
        <div className="actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      )}
      {progress !== null && file ? (
        <div className="field">
          <label htmlFor={`${fileId}-progress`}>Rows imported</label>
          <progress id={`${fileId}-progress`} max={file.rows.length} value={progress}>
            {progress} of {file.rows.length}
          </progress>
          <small className="hint">
            {progress} of {file.rows.length}
          </small>
        </div>
      ) : null}
      {result && file ? (
        <section aria-label="Import result" className="import-result">
          <h3>Result</h3>
          <dl className="facts">
            <dt>Created</dt>
            <dd data-testid="created">{result.created}</dd>
            <dt>Updated</dt>
            <dd data-testid="updated">{result.updated}</dd>
            <dt>Refused</dt>
            <dd data-testid="refused">{result.refused.length}</dd>
          </dl>
          {result.refused.length > 0 ? (
            <>
              <button type="button" onClick={downloadRefused}>
                Download the refused rows (CSV)
              </button>
              <table className="refused">
                <caption>
                  Refused rows
                  {result.refused.length > LISTED_REFUSALS ? ` (the first ${LISTED_REFUSALS})` : ''}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {result.refused.slice(0, LISTED_REFUSALS).map((r) => (
                    <tr key={r.line}>
                      <td>{r.line}</td>
                      <td>{r.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
        </section>
      ) : null}
    </section>
  );
}

/**
 * The first rows as they would be sent, each value judged as the server would judge it: in the
 * browser, and for relation columns by the names' look-up in the field's folder.
 */
function Preview({
  file,
  mapping,
  targets,
}: {
  file: CsvFile & { serial: number; large: unknown };
  mapping: string[];
  targets: Target[];
}) {
  const used = mapping.flatMap((key, i) => (key ? [{ key, column: i }] : []));
  const shown = file.rows.slice(0, PREVIEW_ROWS);
  const { matches, checking, unchecked } = useRelationMatches(file, mapping, targets);
  // Every row is judged once per mapping, not again on each render (the import's progress re-renders).
  const judged = useMemo(
    () => file.rows.map((row) => rowProblems(row, mapping, targets, matches)),
    [file, mapping, targets, matches],
  );
  const bad = judged.flatMap((problems, r) => (problems.length > 0 ? [{ line: r + 2, problems }] : []));
  return (
    <>
      <h3>Preview</h3>
      <p className="hint" data-testid="preview-summary">
        {file.large
          ? bad.length === 0
            ? `All ${file.rows.length} rows of the file’s first megabyte pass the checks.`
            : `${bad.length} of the ${file.rows.length} rows of the file’s first megabyte would be refused as they are.`
          : bad.length === 0
            ? `All ${file.rows.length} rows pass the checks.`
            : `${bad.length} of ${file.rows.length} rows would be refused as they are.`}
      </p>
      {checking.length > 0 ? (
        <p className="hint" aria-busy="true" data-testid="preview-checking">
          Looking up the names of {checking.join(', ')}…
        </p>
      ) : null}
      {unchecked.map(({ label, count }) => (
        <p className="hint" key={label}>
          The first {MAX_CHECKED_NAMES} names of {label} were looked up; the other {count} are checked by the
          server when the rows are sent.
        </p>
      ))}
      {bad.length > 0 ? (
        <ul className="would-refuse">
          {bad.slice(0, LISTED_PROBLEMS).map(({ line, problems }) => (
            <li key={line}>
              Row {line}: {describeProblems(problems)}
            </li>
          ))}
          {bad.length > LISTED_PROBLEMS ? <li>… and {bad.length - LISTED_PROBLEMS} more</li> : null}
        </ul>
      ) : null}
      <div className="table-scroll">
        <table className="preview">
          <caption>
            The first {shown.length} of {file.large ? 'the file’s' : file.rows.length} rows
          </caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              {used.map(({ key }) => (
                <th scope="col" key={key}>
                  {targets.find((t) => t.key === key)?.label ?? key}
                </th>
              ))}
              <th scope="col">Check</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row, r) => {
              const problems = judged[r] ?? [];
              return (
                <tr key={r} className={problems.length > 0 ? 'invalid' : undefined}>
                  <td>{r + 2}</td>
                  {used.map(({ key, column }) => {
                    const problem = problems.find((p) => p.path === pathOf(key));
                    return (
                      <td key={key} className={problem ? 'invalid' : undefined}>
                        {readCell(row[column] ?? '')}
                        {problem ? <small className="field-error"> {problem.message}</small> : null}
                      </td>
                    );
                  })}
                  <td>
                    {problems.length === 0 ? (
                      <span className="ok">OK</span>
                    ) : (
                      <span className="field-error">{describeProblems(problems)}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * The look-up of each relation column's names in its field's folder (import-rows.ts,
 * `matchNames`), once per file and column: the counts found, the columns still being looked
 * up, and those with more names than the preview looks up.
 */
function useRelationMatches(file: CsvFile & { serial: number }, mapping: string[], targets: Target[]) {
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const columns = mapping.flatMap((key, column) => {
    const target = targets.find((t) => t.key === key);
    const folderId = target?.field?.relation?.folderId;
    return target?.by && folderId ? [{ key, column, target, folderId, by: target.by }] : [];
  });
  const folderName = (id: string) => folders.data?.data.find((f) => f.id === id)?.name ?? id;
  const results = useQueries({
    queries: columns.map(({ key, column, folderId, by }) => ({
      queryKey: ['import-names', file.serial, column, key],
      queryFn: () =>
        matchNames({
          folderId,
          folderName: folderName(folderId),
          by,
          cells: file.rows.map((row) => row[column] ?? ''),
          query: (input) => trpc.records.query.query(input),
        }),
      enabled: Boolean(folders.data),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const found = results.map((r) => r.data);
  // A new map only when an answer arrives, so the rows are not judged again on every render.
  const answered = `${file.serial} ${results.map((r, i) => `${columns[i]?.key}@${r.dataUpdatedAt}`).join(' ')}`;
  // Keyed by `answered`, which changes exactly when `found` does.
  const matches = useMemo(() => {
    const map: RelationMatches = new Map();
    columns.forEach(({ key }, i) => {
      const answer = found[i];
      if (answer) map.set(key, answer);
    });
    return map;
  }, [answered]);
  return {
    matches,
    checking: columns.flatMap(({ target }, i) =>
      results[i]?.isPending ? [target.field?.label ?? target.label] : [],
    ),
    unchecked: columns.flatMap(({ target }, i) => {
      const count = found[i]?.unchecked ?? 0;
      return count > 0 ? [{ label: target.field?.label ?? target.label, count }] : [];
    }),
  };
}
