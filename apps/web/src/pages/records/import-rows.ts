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

/** Refused rows an import lists on the page; all of them are in its download. */
export const LISTED_REFUSALS = 200;

/** A custom field as the import reads it: a relation says which folder it links to. */
export type ImportField = FieldLike & {
  label: string;
  relation?: { folderId: string; cardinality: 'ONE' | 'MANY' } | undefined;
};

/** How a cell names the record a ONE relation links to: its title or its email. */
export type ReferenceBy = 'title' | 'email';

/**
 * A record field a column can fill: `title`, `email`, `phone` or `data.<key>`; for a ONE
 * relation `data.<key>:title` or `data.<key>:email`, the linked record named by its title or
 * its email.
 */
export interface Target {
  key: string;
  label: string;
  field?: ImportField;
  by?: ReferenceBy;
}

/**
 * What a column can fill. A relation to one record is filled by the linked record's title or
 * email; a relation to several records is not kept in `data` and is not imported.
 */
export function targetsOf(fields: ImportField[]): Target[] {
  return [
    { key: 'title', label: 'Title' },
    { key: 'email', label: 'Email' },
    { key: 'phone', label: 'Phone' },
    ...fields.flatMap((field): Target[] => {
      if (!field.relation) return [{ key: `data.${field.key}`, label: field.label, field }];
      if (field.relation.cardinality === 'MANY') return [];
      return (['title', 'email'] as const).map((by) => ({
        key: `data.${field.key}:${by}`,
        label: `${field.label} (by ${by})`,
        field,
        by,
      }));
    }),
  ];
}

/** The record field a target fills, as errors name it: `data.company` for `data.company:title`. */
export function pathOf(key: string): string {
  return key.replace(/:(?:title|email)$/, '');
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
    const names = (t: Target) => {
      const own = [normal(t.field?.key ?? t.key), normal(t.field?.label ?? t.label), ...(ALSO[t.key] ?? [])];
      // A relation by title takes the field's own names; by email, those names and "email".
      return t.by === 'email' ? own.map((n) => `${n}email`) : own;
    };
    const found = targets.find((t) => !taken.has(pathOf(t.key)) && names(t).includes(name));
    if (!found) return '';
    taken.add(pathOf(found.key));
    return found.key;
  });
}

/**
 * Targets chosen for more than one column (each field takes one column: a relation by title
 * and by email are the same field).
 */
export function repeatedTargets(mapping: string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const key of mapping) {
    if (!key) continue;
    if (seen.has(pathOf(key))) twice.add(pathOf(key));
    seen.add(pathOf(key));
  }
  return [...new Set(mapping.filter((key) => key && twice.has(pathOf(key))))];
}

/**
 * A row's values as a create sends them. Cells are trimmed and an empty cell is left out (so
 * an upsert keeps the value the record has); a MULTI_SELECT cell is split at commas; a ONE
 * relation goes as `{ "title": … }` or `{ "email": … }`, which the server resolves to the one
 * live record of the field's folder that has it; a `'` the export put before a formula
 * character is taken off. Everything else goes as text, which the server reads as it reads
 * values from no-code tools.
 */
export function rowValues(row: string[], mapping: string[], targets: Target[]): RecordValues {
  const values: RecordValues = {};
  const data: Record<string, unknown> = {};
  mapping.forEach((key, i) => {
    if (!key) return;
    const text = readCell(row[i] ?? '');
    if (text === '' && key !== 'title') return;
    const target = targets.find((t) => t.key === key);
    if (target?.field && target.by) {
      data[target.field.key] = { [target.by]: text };
    } else if (target?.field) {
      data[target.field.key] = target.field.type === 'MULTI_SELECT' ? optionsFromText(text) : text;
    } else if (key === 'title' || key === 'email' || key === 'phone') {
      values[key] = text;
    }
  });
  if (Object.keys(data).length > 0) values.data = data;
  return values;
}

/**
 * What the server would refuse in a row, judged in the browser (lib/record-checks.ts), and,
 * with `matches`, the relation cells whose title or email names no live record of the
 * field's folder, or several: the server refuses those too, with the same words.
 */
export function rowProblems(
  row: string[],
  mapping: string[],
  targets: Target[],
  matches?: RelationMatches,
): ValueProblem[] {
  const fields = [
    ...new Map(targets.flatMap((t) => (t.field ? [[t.field.key, t.field] as const] : []))).values(),
  ];
  const problems = recordProblems(fields, rowValues(row, mapping, targets));
  if (!matches) return problems;
  mapping.forEach((key, i) => {
    const target = targets.find((t) => t.key === key);
    const found = matches.get(key);
    if (!target?.by || !found) return;
    const path = pathOf(key);
    const text = readCell(row[i] ?? '');
    if (text === '' || problems.some((p) => p.path === path)) return;
    const matched = found.counts.get(nameKey(target.by, text));
    if (matched === undefined || matched === 1) return;
    problems.push({ path, message: referenceProblem(target.by, text, found.folderName, matched) });
  });
  return problems;
}

/**
 * Why a title or email names no record of a folder, or several: the words the server uses
 * for a ONE relation value it cannot resolve (docs/api.md, "Relations").
 */
function referenceProblem(by: ReferenceBy, value: string, folder: string, matched: number): string {
  const what = `the ${by} ${JSON.stringify(value)}`;
  return matched === 0
    ? `no live record of folder ${folder} has ${what}`
    : `several live records of folder ${folder} have ${what}; give the id of one`;
}

/** How the server compares a name: a title exactly, an email in any letter case. */
function nameKey(by: ReferenceBy, value: string): string {
  return by === 'email' ? value.toLowerCase() : value;
}

/** For one relation column: how many live records of the field's folder each name matches (2: several). */
export interface NameMatches {
  folderName: string;
  counts: Map<string, number>;
  /** Names past MAX_CHECKED_NAMES, left to the server. */
  unchecked: number;
}

/** The name checks of each relation column, by its target key (`data.company:title`). */
export type RelationMatches = Map<string, NameMatches>;

/** Distinct names of one column the preview checks against the server; the import checks all. */
export const MAX_CHECKED_NAMES = 1000;
/** Names a look-up sends at once: the most an `in` filter takes, and a URL of modest length. */
const NAMES_PER_CALL = 100;
const CHARS_PER_CALL = 2000;

type QueryInput = Inputs['records']['query'];
type QueryAnswer = Outputs['records']['query'];

/**
 * Looks the names of a relation column up in the field's folder (`records.query` with
 * `filter: { field: "title" | "email", op: "in", value: [...] }`, 100 names a call, every page
 * read): each name's count of live records, 0, 1 or 2 for several. The names are the column's
 * cells as the import sends them (trimmed, the formula guard taken off), each once.
 */
export async function matchNames({
  folderId,
  folderName,
  by,
  cells,
  query,
}: {
  folderId: string;
  folderName: string;
  by: ReferenceBy;
  cells: string[];
  query: (input: QueryInput) => Promise<QueryAnswer>;
}): Promise<NameMatches> {
  const names = [...new Set(cells.map(readCell).filter((c) => c !== '' && c.length <= 500))];
  const checked = names.slice(0, MAX_CHECKED_NAMES);
  const counts = new Map<string, number>();
  for (const name of checked) counts.set(nameKey(by, name), 0);
  const calls: string[][] = [];
  let call: string[] = [];
  let chars = 0;
  for (const name of checked) {
    if (call.length === NAMES_PER_CALL || (call.length > 0 && chars + name.length > CHARS_PER_CALL)) {
      calls.push(call);
      call = [];
      chars = 0;
    }
    call.push(name);
    chars += name.length;
  }
  if (call.length > 0) calls.push(call);
  for (const value of calls) {
    let cursor: string | undefined;
    do {
      const page = await query({
        folderId,
        filter: { field: by, op: 'in', value },
        pageSize: 200,
        ...(cursor ? { cursor } : {}),
      });
      for (const record of page.data) {
        const found = by === 'title' ? record.title : record.email;
        if (found === null) continue;
        const key = nameKey(by, found);
        const n = counts.get(key);
        if (n !== undefined) counts.set(key, Math.min(n + 1, 2));
      }
      cursor = page.meta.nextCursor ?? undefined;
    } while (cursor);
  }
  return { folderName, counts, unchecked: names.length - checked.length };
}

interface RefusedRow {
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
      const sent = part[entry.index];
      if (!sent) throw new Error(`The batch answered item ${entry.index}, which it was not sent`);
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
