import { readCell } from '../../lib/csv.ts';
import { optionsFromText } from '../../lib/format.ts';
import type { Inputs, Outputs } from '../../lib/query.ts';
import {
  type FieldLike,
  type RecordValues,
  reasonOf,
  recordProblems,
  type ValueProblem,
} from '../../lib/record-checks.ts';

/**
 * The CSV import of the records table (docs/web-app.md, "CSV import and export"), apart from
 * its page: which record field each column fills, each row's values, and sending them in
 * batches. Nothing here touches the DOM, so a test can drive it outside a browser too.
 */

/** Rows a batch call carries: the batch limit (docs/api.md, "Batch writes"). */
const BATCH_SIZE = 100;

/** A record field a column can fill: `title`, `email`, `phone` or `data.<key>`. */
export interface Target {
  key: string;
  label: string;
  field?: FieldLike;
}

export function targetsOf(fields: (FieldLike & { label: string })[]): Target[] {
  return [
    { key: 'title', label: 'Title' },
    { key: 'email', label: 'Email' },
    { key: 'phone', label: 'Phone' },
    ...fields.map((field) => ({ key: `data.${field.key}`, label: field.label, field })),
  ];
}

/** A name without case, blanks, `_`, `-` or `.`: `E-mail Address` → `emailaddress`. */
const normal = (name: string) => name.toLowerCase().replace(/[\s_.-]+/g, '');

/** Other headers that mean the same field. */
const ALSO: Record<string, string[]> = {
  title: ['name', 'fullname', 'recordtitle'],
  email: ['emailaddress', 'mail'],
  phone: ['phonenumber', 'telephone', 'tel', 'mobile'],
};

/**
 * Each column's target, guessed from its header: the field whose key or label it is (letter
 * case, blanks, `_` and `-` aside), or a usual other name (`Name` for the title, `E-mail` …).
 * A field is taken by the first column that names it; other columns are not imported ('').
 */
export function guessMapping(columns: string[], targets: Target[]): string[] {
  const taken = new Set<string>();
  return columns.map((column) => {
    const name = normal(column);
    const found = targets.find(
      (t) =>
        !taken.has(t.key) &&
        (normal(t.key.replace(/^data\./, '')) === name ||
          normal(t.label) === name ||
          (ALSO[t.key] ?? []).includes(name)),
    );
    if (!found) return '';
    taken.add(found.key);
    return found.key;
  });
}

/** Targets chosen for more than one column (each field takes one column). */
export function repeatedTargets(mapping: string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const key of mapping) {
    if (!key) continue;
    if (seen.has(key)) twice.add(key);
    seen.add(key);
  }
  return [...twice];
}

/**
 * A row's values as a create sends them. Cells are trimmed and an empty cell is left out (so
 * an upsert keeps the value the record has); a MULTI_SELECT cell is split at commas; a `'`
 * the export put before a formula character is taken off. Everything else goes as text, which
 * the server reads as it reads values from no-code tools.
 */
export function rowValues(row: string[], mapping: string[], targets: Target[]): RecordValues {
  const values: RecordValues = {};
  const data: Record<string, unknown> = {};
  mapping.forEach((key, i) => {
    if (!key) return;
    const text = readCell(row[i] ?? '');
    if (text === '' && key !== 'title') return;
    const target = targets.find((t) => t.key === key);
    if (target?.field) {
      data[target.field.key] = target.field.type === 'MULTI_SELECT' ? optionsFromText(text) : text;
    } else if (key === 'title' || key === 'email' || key === 'phone') {
      values[key] = text;
    }
  });
  if (Object.keys(data).length > 0) values.data = data;
  return values;
}

/** What the server would refuse in a row, judged in the browser (lib/record-checks.ts). */
export function rowProblems(row: string[], mapping: string[], targets: Target[]): ValueProblem[] {
  const fields = targets.flatMap((t) => (t.field ? [t.field] : []));
  return recordProblems(fields, rowValues(row, mapping, targets));
}

export interface RefusedRow {
  /** The row's number in the file, the header being row 1. */
  line: number;
  row: string[];
  reason: string;
}

export interface ImportResult {
  created: number;
  updated: number;
  refused: RefusedRow[];
}

type BatchInput = Inputs['records']['batchCreate'];
type BatchAnswer = Outputs['records']['batchCreate'];

/** Statuses after which a batch is sent again: nothing of it was written (docs/api.md, "Batch writes"). */
const RETRIED = new Set([429, 503]);
/** Waits before each new try of a refused batch, in seconds; then the import stops. */
const RETRY_WAITS = [5, 10, 20, 30, 30];

/**
 * Imports `rows` into a folder through `records.batchCreate` (`POST /records/batch`), 100 rows
 * a call, one call after another, in file order. Rows with an email are upserted by it
 * (`upsert: "email"`: the folder's live record with that email is updated, else one is
 * created); rows without one are created after them, since an upsert needs the email. Every
 * row is sent, and the server judges it: a refused row is reported with its line and the
 * server's reason. A call refused whole with 429 (the rate limit) or 503 wrote nothing and is
 * sent again after a wait (`retry`); any other failure stops the import, the rows of the calls
 * before it written. `onProgress` hears how many rows are done after each call.
 */
export async function importRows({
  folderId,
  rows,
  mapping,
  targets,
  send,
  onProgress,
  retry,
}: {
  folderId: string;
  rows: string[][];
  mapping: string[];
  targets: Target[];
  send: (input: BatchInput) => Promise<BatchAnswer>;
  onProgress?: (done: number) => void;
  retry?: {
    /** The HTTP status of a failed call, if it has one. */
    statusOf: (error: unknown) => number | null;
    wait: (seconds: number) => Promise<void>;
  };
}): Promise<ImportResult> {
  const result: ImportResult = { created: 0, updated: 0, refused: [] };
  const all = rows.map((row, i) => ({
    row,
    line: i + 2,
    item: { folderId, title: '', ...rowValues(row, mapping, targets) },
  }));
  const calls: { part: typeof all; upsert: boolean }[] = [];
  for (const [part, upsert] of [
    [all.filter((c) => c.item.email), true],
    [all.filter((c) => !c.item.email), false],
  ] as const) {
    for (let start = 0; start < part.length; start += BATCH_SIZE) {
      calls.push({ part: part.slice(start, start + BATCH_SIZE), upsert });
    }
  }
  let done = 0;
  for (const { part, upsert } of calls) {
    const input = { items: part.map((c) => c.item), ...(upsert ? { upsert: 'email' as const } : {}) };
    const answer = await sendWithRetry(() => send(input), retry);
    for (const entry of answer.data) {
      const sent = part[entry.index]!;
      if ('error' in entry) {
        result.refused.push({ line: sent.line, row: sent.row, reason: reasonOf(entry.error) });
      } else if (entry.status === 201) result.created++;
      else result.updated++;
    }
    done += part.length;
    onProgress?.(done);
  }
  result.refused.sort((a, b) => a.line - b.line);
  return result;
}

async function sendWithRetry<T>(call: () => Promise<T>, retry: Parameters<typeof importRows>[0]['retry']) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const status = retry?.statusOf(error) ?? null;
      const wait = RETRY_WAITS[attempt];
      if (!retry || status === null || !RETRIED.has(status) || wait === undefined) throw error;
      await retry.wait(wait);
    }
  }
}
