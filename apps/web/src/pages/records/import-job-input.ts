import { readCell } from '../../lib/csv.ts';
import type { Inputs } from '../../lib/query.ts';
import { pathOf, type Target } from './import-rows.ts';

/**
 * A CSV file larger than this is imported through a job (docs/web-app.md, "CSV import and
 * export"); a smaller one is read whole in the browser and sent in batches of 100 rows. It is
 * also how much of a large file the panel reads for its preview. 1 MB holds some 10,000 to
 * 15,000 rows of a usual contacts file: about 150 batches, a quarter of the session's 600
 * requests a minute, imported in about ten seconds. Past it the batches take longer with
 * every row, reach the rate limit at 60,000 rows a minute, need the page kept open, and make
 * the browser hold and parse the whole file; a job streams the file from the disk and the
 * server writes it on its own. Decided by the file's size, which is known before reading it.
 */
export const JOB_IMPORT_BYTES = 1_000_000;

type ImportJobInput = Inputs['jobs']['createImport'];

/**
 * The import job's input (`jobs.createImport`) from the panel's choices: each mapped column by
 * its name in the file's header to its field; a relation to one record "by title" or "by
 * email" goes to the field, with `relations` saying how its cells name the record. With
 * `upsertByEmail` (and a column mapped to the email), a row updates the folder's live record
 * with its email, as the batches do; a row without an email is created.
 *
 * The job reads the file's columns by their names, so a mapped column needs a name of its own:
 * the problems say which do not have one.
 */
export function importJobInput({
  folderId,
  header,
  mapping,
  targets,
  upsertByEmail,
}: {
  folderId: string;
  /** The header's names as written, '' for a blank one. */
  header: string[];
  /** Each column's target key (`title`, `data.company:title` …), '' for a column left out. */
  mapping: string[];
  targets: Target[];
  upsertByEmail: boolean;
}): { input: ImportJobInput; problems: [] } | { input: null; problems: string[] } {
  const problems: string[] = [];
  const counts = new Map<string, number>();
  for (const name of header) if (name !== '') counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const [name, count] of counts) {
    if (count > 1)
      problems.push(`The header names the column “${name}” ${count} times; each needs its own name.`);
  }
  const columns: Record<string, string> = {};
  const relations: Record<string, 'title' | 'email'> = {};
  mapping.forEach((key, i) => {
    if (!key) return;
    const name = header[i] ?? '';
    if (name === '') {
      problems.push(`Column ${i + 1} has no name in the header; give it one, or do not import it.`);
      return;
    }
    columns[name] = pathOf(key);
    const by = targets.find((t) => t.key === key)?.by;
    if (by) relations[pathOf(key)] = by;
  });
  if (problems.length > 0) return { input: null, problems };
  const emailed = Object.values(columns).includes('email');
  return {
    input: {
      folderId,
      format: 'csv',
      mapping: columns,
      ...(upsertByEmail && emailed ? { upsertBy: 'email' } : {}),
      ...(Object.keys(relations).length > 0 ? { relations } : {}),
    },
    problems: [],
  };
}

/**
 * Cells of the mapped columns that start with the `'` this app's export puts before `=`, `+`,
 * `-` or `@`: the batches take it off, a job keeps it as part of the value.
 */
export function guardedCells(rows: string[][], mapping: string[]): number {
  let count = 0;
  for (const row of rows) {
    mapping.forEach((key, i) => {
      const cell = row[i] ?? '';
      if (key && readCell(cell) !== cell.trim()) count++;
    });
  }
  return count;
}
