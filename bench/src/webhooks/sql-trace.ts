import { readFile } from 'node:fs/promises';
import { round } from '../time.ts';

interface StatementCount {
  statement: string;
  /** Times sent per delivered record. */
  perRecord: number;
}

export interface SqlPerRecord {
  records: number;
  /** Statements the service sent per created-and-delivered record (API, fan-out, delivery, queue). */
  statements: number;
  /** BEGINs per record: transactions of more than one statement. */
  transactions: number;
  /** Statements graphile-worker sent itself (job fetch and completion), per record. */
  queueStatements: number;
  top: StatementCount[];
}

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 110);

/**
 * Counts what the service's pg clients sent while `records` records were created and
 * delivered, from a trace written by ../trace-sql.mjs (one JSON line per statement).
 */
export async function countStatements(file: string, records: number, digits = 2): Promise<SqlPerRecord> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const counts = new Map<string, number>();
  let begins = 0;
  let queue = 0;
  for (const line of lines) {
    const { text } = JSON.parse(line) as { text: string };
    const key = normalize(text);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (/^begin/i.test(key)) begins++;
    if (/graphile_worker"?\._private_jobs/.test(key) || /graphile_worker\.(complete|fail)_jobs/.test(key))
      queue++;
  }
  return {
    records,
    statements: round(lines.length / records, digits),
    transactions: round(begins / records, digits),
    queueStatements: round(queue / records, digits),
    top: [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 24)
      .map(([statement, n]) => ({ statement, perRecord: round(n / records, digits + 1) })),
  };
}
