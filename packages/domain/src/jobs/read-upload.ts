import type { JobFileInfo } from '@crm/db/schema';
import { type Parser, parse } from 'csv-parse';
import { DomainError } from '../shared/errors.ts';
import { JOB_FILE_LIMITS } from './schemas.ts';

/** What reading an upload needs: the file's media type, the columns the mapping names. */
export interface UploadRules {
  mediaType: string;
  mappedColumns: string[];
  limits?: { bytes: number; rows: number };
}

/**
 * Checks an uploaded file as it streams past, handing each chunk on (`keep`, which stores it):
 * UTF-8 throughout; for CSV a header row (comma or semicolon, a BOM allowed) holding every
 * column the mapping names, and no row with more columns than it; at most 1 GiB and 5,000,000
 * rows. A refusal names the row or the limit (docs/jobs.md, "Files"); the caller's transaction
 * then keeps nothing. Answers what the file is, for the job to read it again.
 */
export async function readUpload(
  body: AsyncIterable<Uint8Array>,
  rules: UploadRules,
  keep: (chunk: Buffer) => Promise<void>,
): Promise<JobFileInfo> {
  const limits = rules.limits ?? JOB_FILE_LIMITS;
  const csv = rules.mediaType === 'text/csv';
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const count = csv ? csvCounter(rules) : ndjsonCounter();
  let bytes = 0;
  for await (const piece of body) {
    const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      throw refused(
        `The file is not UTF-8: an invalid byte sequence within bytes ${bytes + 1} to ${bytes + chunk.length}`,
      );
    }
    bytes += chunk.length;
    if (bytes > limits.bytes) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `The file is over the limit of ${limitText(limits.bytes)}`);
    }
    await count.write(chunk);
    if (count.rows() > limits.rows) throw refused(`The file has more than ${limits.rows} rows, the limit`);
    await keep(chunk);
  }
  try {
    decoder.decode();
  } catch {
    throw refused('The file is not UTF-8: it ends inside a character');
  }
  const done = await count.end();
  if (done.rows > limits.rows) throw refused(`The file has more than ${limits.rows} rows, the limit`);
  return { mediaType: rules.mediaType, bytes, parts: 0, ...done };
}

function limitText(bytes: number): string {
  return bytes % (1024 * 1024 * 1024) === 0 ? `${bytes / 1024 / 1024 / 1024} GiB` : `${bytes} bytes`;
}

function refused(message: string, path = 'file'): DomainError {
  return new DomainError('VALIDATION_FAILED', message, { details: [{ path, message }] });
}

interface Counter {
  write(chunk: Buffer): Promise<void>;
  rows(): number;
  end(): Promise<Omit<JobFileInfo, 'mediaType' | 'bytes' | 'parts'> & { rows: number }>;
}

/** NDJSON: rows are the non-empty lines; each is read as JSON when the job runs (a bad one is that row's refusal). */
function ndjsonCounter(): Counter {
  let rows = 0;
  let lineHasText = false;
  return {
    async write(chunk) {
      for (const byte of chunk) {
        if (byte === 10) {
          if (lineHasText) rows++;
          lineHasText = false;
        } else if (byte !== 32 && byte !== 9 && byte !== 13) {
          lineHasText = true;
        }
      }
    },
    rows: () => rows,
    async end() {
      if (lineHasText) rows++;
      return { rows, bodyOffset: 0 };
    },
  };
}

/**
 * CSV: the header is the first row, its delimiter the one of `,` and `;` it holds more of
 * (outside quotes); each later row is counted, and one with more columns than the header
 * refuses the file.
 */
function csvCounter(rules: UploadRules): Counter {
  let head = Buffer.alloc(0);
  let parser: Parser | undefined;
  let failure: Error | undefined;
  let header: string[] | undefined;
  let bodyOffset = 0;
  let rows = 0;
  let delimiter = ',';
  const start = (first: Buffer) => {
    delimiter = delimiterOf(first);
    parser = parse({ delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
    parser.on('data', ({ record, info }: { record: string[]; info: { bytes: number; lines: number } }) => {
      if (failure) return;
      if (!header) {
        header = record.map((name) => name.trim());
        bodyOffset = info.bytes;
        failure = headerProblem(header, rules.mappedColumns);
        return;
      }
      rows++;
      if (record.length > header.length) {
        failure = refused(
          `Row ${rows} (line ${info.lines}) has ${record.length} columns, more than the header's ${header.length}`,
          `row ${rows}`,
        );
      }
    });
    parser.on('error', (error) => {
      failure ??= refused(`The file is not valid CSV: ${error.message}`);
    });
  };
  const feed = async (chunk: Buffer) => {
    if (!parser) return;
    if (!parser.write(chunk)) await new Promise((resolve) => parser?.once('drain', resolve));
    if (failure) throw failure;
  };
  return {
    async write(chunk) {
      if (!parser) {
        head = Buffer.concat([head, chunk]);
        // The header's line decides the delimiter: wait for its end (or 64 KiB of it).
        if (head.indexOf(10) === -1 && head.length < 65_536) return;
        start(head);
        const first = head;
        head = Buffer.alloc(0);
        await feed(first);
        return;
      }
      await feed(chunk);
    },
    rows: () => rows,
    async end() {
      if (!parser && head.length > 0) {
        start(head);
        await feed(head);
      }
      if (parser) {
        const ended = new Promise((resolve) => parser?.once('end', resolve));
        parser.end();
        parser.resume();
        await ended;
      }
      if (failure) throw failure;
      if (!header) throw refused('The file is empty: a CSV file starts with a header row');
      return { rows, header, delimiter, bodyOffset };
    },
  };
}

/** `;` when the first line holds more semicolons than commas outside quotes, else `,`. */
function delimiterOf(head: Buffer): string {
  const nl = head.indexOf(10);
  const line = head.subarray(0, nl === -1 ? head.length : nl).toString('utf8');
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

function headerProblem(header: string[], mapped: string[]): Error | undefined {
  if (header.every((name) => name === ''))
    return refused('The file has no header row: its first row is empty');
  const seen = new Set<string>();
  for (const name of header) {
    if (name !== '' && seen.has(name))
      return refused(`The header names the column "${name}" twice`, 'header');
    seen.add(name);
  }
  const absent = mapped.filter((column) => !seen.has(column));
  if (absent.length > 0) {
    return refused(
      `The header has no column ${absent.map((c) => `"${c}"`).join(', ')}, which the mapping names; it has ${header.map((c) => `"${c}"`).join(', ')}`,
      'header',
    );
  }
  return undefined;
}
