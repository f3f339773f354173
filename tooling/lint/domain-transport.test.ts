/**
 * The domain knows nothing of HTTP (docs/architecture.md): an action answers what it did (a
 * batch item `created` or not, a link made or found), and the API layer turns that into a
 * status. This searches the domain's source (tests aside) for HTTP success statuses written
 * as values (`status: 201`, `200 | 201`, `=== 201`) and response headers written as values,
 * so that one creeping back is seen.
 * The replay store of Idempotency-Key, which keeps a first answer's status, headers and
 * body, is the HTTP layer's (apps/server/src/rest/idempotency-store.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const domain = join(repo, 'packages', 'domain', 'src');

/** A header written as a value: `'Content-Type': …` or `{"Content-Type":…}` in SQL. */
const HEADER = /["'](?:Content-Type|Location|ETag|Retry-After|Idempotent-Replayed)["']\s*:/i;

const STATUS = /\bstatus\s*:\s*(?:[1-5]\d\d)\b|\b2\d\d\s*\|\s*2\d\d\b|[=!]==\s*2\d\d\b|\b2\d\d\s*[=!]==/;

/** The lines of a source text that write an HTTP status or header as a value, as `line: text`. */
export function statusesIn(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
    if (STATUS.test(code) || HEADER.test(code)) found.push(`${index + 1}: ${line.trim()}`);
  });
  return found;
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the domain', () => {
  it('finds a status written as a value, and not one in a comment', () => {
    expect(statusesIn('return { status: 201, data };\n// status: 201 in words\nif (x === 201) y();')).toEqual(
      ['1: return { status: 201, data };', '3: if (x === 201) y();'],
    );
    expect(statusesIn('const limit = 200;\nwork: () => Promise<{ created: boolean }>')).toEqual([]);
    expect(
      statusesIn(`headers: { 'Content-Type': 'text/csv' }\n'{"Content-Type":"application/json"}'::jsonb`),
    ).toHaveLength(2);
    expect(statusesIn('`send the file with Content-Type: ${type}`')).toEqual([]);
  });

  it('writes no HTTP status', () => {
    const found = sources(domain).flatMap((path) =>
      statusesIn(readFileSync(path, 'utf8')).map((line) => `${relative(domain, path)}:${line}`),
    );
    expect(found).toEqual([]);
  });
});
