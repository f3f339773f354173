/**
 * The fourth form of SQL (CONTRIBUTING.md, "Writing SQL"): a statement sent through the
 * pool's own `query` (`db.$client.query(…)`), past the ORM and `runNamed`. It is kept to the
 * modules listed here, each with why it needs that form; anywhere else a statement is written
 * with the query builder, a `sql` template or a named statement.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const ALLOWED: Record<string, string> = {
  'packages/domain/src/workflows/accept-trigger.ts':
    'the trigger URL looks up its workflow and queues runs on every call, outside a transaction, reading instants as Dates',
  'packages/domain/src/relations/expand.ts':
    'a record read with its relations expanded, planned once per connection as the plain read is, outside a transaction',
  'packages/domain/src/api-keys/log-key-uses.ts':
    "the batched write of keys' last use, on a timer outside any request's transaction, its instants sent as Dates",
  'packages/domain/src/rate-limit/consume-rate-limit.ts':
    'the rate limit counts every request on its own pool (synchronous_commit off), outside any transaction',
};

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

  it('is sent only by the modules listed, and each of them still sends it', () => {
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
    expect(found).toEqual(Object.keys(ALLOWED).sort());
  });
});
