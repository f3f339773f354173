import Papa from 'papaparse';

/**
 * CSV in and out of the records table (docs/web-app.md, "CSV import and export"). Files are
 * read with papaparse; what the app writes it writes itself, so the escaping and the formula
 * guard below are the whole of it.
 */

/**
 * Cells a spreadsheet would run as a formula: one starting with `=`, `+`, `-` or `@` (and a
 * tab or carriage return, which some read the same way). Written with a leading `'`, which
 * spreadsheets show as text, so an exported value can never run.
 */
const FORMULA = /^[=+\-@\t\r]/;

/** One cell as written: formula-guarded, then quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string): string {
  const safe = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows as CSV text: cells separated by commas, lines ended by CRLF (RFC 4180). */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/**
 * A cell as read back: the `'` the export put before a formula character is taken off again,
 * so a file exported here imports with its values as they were.
 */
export function readCell(value: string): string {
  const trimmed = value.trim();
  return trimmed.length > 1 && trimmed[0] === "'" && FORMULA.test(trimmed.slice(1))
    ? trimmed.slice(1)
    : trimmed;
}

export interface CsvFile {
  /** The header row: each column's name as the file writes it. */
  columns: string[];
  /** The other rows, each cell as written (not trimmed), as many cells as `columns`. */
  rows: string[][];
}

/** Reads a CSV file whose first row names its columns. Blank lines are skipped. */
export function parseCsv(text: string): CsvFile {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header = [], ...rest] = parsed.data;
  const columns = header.map((name, i) => name.trim() || `Column ${i + 1}`);
  const rows = rest.map((row) => columns.map((_, i) => row[i] ?? ''));
  return { columns, rows };
}

/**
 * The start of a file too large to read whole: its header and the rows of its first `bytes`,
 * the row the cut falls in left out. `header` holds each column's name as the file writes it
 * (trimmed; '' for a blank one, which `columns` calls `Column N`). The delimiter is `,` or
 * `;`, as the server reads an import job's file (docs/jobs.md, "Files").
 */
export async function readCsvHead(file: Blob, bytes: number): Promise<CsvFile & { header: string[] }> {
  const whole = file.size <= bytes;
  const text = await file.slice(0, bytes).text();
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';'],
  });
  const [first = [], ...rest] = parsed.data;
  if (!whole) rest.pop();
  const header = first.map((name) => name.trim());
  const columns = header.map((name, i) => name || `Column ${i + 1}`);
  return { header, columns, rows: rest.map((row) => columns.map((_, i) => row[i] ?? '')) };
}
