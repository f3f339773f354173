/**
 * SQL is written in three forms (CONTRIBUTING.md, "Writing SQL"): the query builder, a `sql`
 * template, a named statement (`runNamed`). A statement sent through the pool's own `query`
 * (`db.$client.query(…)`), past the ORM and `runNamed`, is a fourth form the rule has no place
 * for: a statement that must run outside any transaction, or read instants as `Date`s, is a
 * named statement run on the database handle (`runNamed(db, …, { instants: 'date' })`). This
 * finds one creeping back into the sources of `packages/` and `apps/`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const RAW_POOL_QUERY = /\$client\s*\.\s*query\s*[<(]/;

/** The lines of a source text that send a statement through the pool's own `query`. */
export function rawPoolQueries(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) => (RAW_POOL_QUERY.test(line.replace(/\/\/.*$/, '')) ? [`${index + 1}`] : []));
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'testing' || entry.name === 'node_modules' ? [] : sources(path);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('SQL through the pool’s own query', () => {
  it('is found in a call with or without a type argument, and not in a comment', () => {
    expect(
      rawPoolQueries('await db.$client.query({ name, text });\nconst r = await db.$client.query<Row>(x);'),
    ).toEqual(['1', '2']);
    expect(rawPoolQueries('// db.$client.query({ … })\nawait runNamed(db, statement, values);')).toEqual([]);
  });

  it('is sent by no module of the product', () => {
    const found = ['packages', 'apps']
      .flatMap((top) =>
        readdirSync(join(repo, top), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(repo, top, entry.name, 'src')),
      )
      .filter((folder) => {
        try {
          return readdirSync(folder).length > 0;
        } catch {
          return false;
        }
      })
      .flatMap(sources)
      .filter((path) => rawPoolQueries(readFileSync(path, 'utf8')).length > 0)
      .map((path) => relative(repo, path))
      .sort();
    expect(found).toEqual([]);
  });
});
