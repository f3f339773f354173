import { Readable } from 'node:stream';
import type { JobFileInfo } from '@crm/db/schema';
import { parse } from 'csv-parse';

/** A row of an import's file: its number (1 for the first after a CSV's header), its values or why it cannot be read, and the byte after it. */
export interface FileRow {
  row: number;
  values: Record<string, unknown> | null;
  problem: string | null;
  end: number;
}

/**
 * The rows of an uploaded file from byte `offset` (a row's start) on, numbered from `row + 1`:
 * CSV through csv-parse (RFC 4180, the header's delimiter; a row shorter than the header has
 * its missing columns empty), NDJSON a JSON object a line. Empty lines are no rows.
 */
export async function* fileRows(
  file: JobFileInfo,
  bytes: AsyncIterable<Buffer>,
  from: { row: number; offset: number },
): AsyncGenerator<FileRow> {
  let row = from.row;
  if (file.mediaType === 'application/x-ndjson') {
    for await (const line of ndjsonLines(bytes, from.offset)) {
      row++;
      yield { row, ...ndjsonValues(line.text), end: line.end };
    }
    return;
  }
  const header = file.header ?? [];
  const parser = Readable.from(bytes).pipe(
    parse({
      delimiter: file.delimiter ?? ',',
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }),
  );
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { bytes: number };
  }>) {
    row++;
    const values: Record<string, unknown> = {};
    header.forEach((column, i) => {
      values[column] = record[i] ?? '';
    });
    yield { row, values, problem: null, end: from.offset + info.bytes };
  }
}

function ndjsonValues(text: string): Pick<FileRow, 'values' | 'problem'> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { values: null, problem: 'the line is not a JSON object' };
    return { values: value as Record<string, unknown>, problem: null };
  } catch (error) {
    return { values: null, problem: `the line is not JSON: ${(error as Error).message}` };
  }
}

/** The non-empty lines of NDJSON bytes, each with the byte after its newline. */
export async function* ndjsonLines(
  bytes: AsyncIterable<Buffer>,
  offset: number,
): AsyncGenerator<{ text: string; end: number }> {
  let pending: Buffer = Buffer.alloc(0);
  let at = offset;
  for await (const chunk of bytes) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let start = 0;
    for (let nl = pending.indexOf(10, start); nl !== -1; nl = pending.indexOf(10, start)) {
      const text = pending.subarray(start, nl).toString('utf8').replace(/\r$/, '');
      at += nl + 1 - start;
      start = nl + 1;
      if (text.trim() !== '') yield { text, end: at };
    }
    pending = pending.subarray(start);
  }
  const text = pending.toString('utf8');
  if (text.trim() !== '') yield { text, end: at + pending.length };
}
