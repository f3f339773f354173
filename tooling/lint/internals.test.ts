/**
 * Library internals only where the house allows them (CONTRIBUTING.md, "Habits"): what our
 * code reads past a library's declared API lives in an `internals/` module, or in a module a
 * decision record names in its table of internals (docs/decisions/0010-two-patches-remain.md,
 * "Internals"), each with a test that fails when an upgrade moves what it reads. Every other
 * source file of the product (apps/, packages/, tooling/; tests aside, which may look anywhere
 * to check behaviour, and the benchmark, which observes the queue's tables) is searched for
 * the marks of a reach: a member whose name starts with `_` (`_def`, `_zod`, `_matchedRoute`),
 * graphile-worker's private tables, tRPC's `unstable-core-do-not-import`, and drizzle's
 * undeclared `session`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const REACHES: { what: string; pattern: RegExp }[] = [
  { what: 'a member named with a leading underscore', pattern: /\.\s*_(?!private_)[A-Za-z]\w*/ },
  { what: "graphile-worker's private tables", pattern: /\b_private_[a-z]+/ },
  { what: "tRPC's unstable core", pattern: /unstable-core-do-not-import/ },
  { what: "drizzle's undeclared session", pattern: /['"]session['"]\s+in\b|[\w)\]]\.session\b/ },
];

/** The reaches in a source text, as `line: what`. Comments count too: they often quote the reach. */
export function reachesIn(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { what, pattern } of REACHES) if (pattern.test(line)) found.push(`${index + 1}: ${what}`);
  });
  return found;
}

/** The source files a decision record names in a table of its "Internals" section. */
function modulesNamedByDecisions(): Set<string> {
  const folder = join(repo, 'docs', 'decisions');
  const named = new Set<string>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.md'))) {
    let inInternals = false;
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
      if (line.startsWith('#')) inInternals = /internals/i.test(line);
      if (!inInternals || !line.startsWith('|')) continue;
      for (const match of line.matchAll(/`((?:apps|packages|tooling|bench)\/[\w./-]+\.tsx?)`/g))
        named.add(match[1] as string);
    }
  }
  return named;
}

function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', 'apps', 'packages', 'tooling'], { cwd: repo, encoding: 'utf8' })
    .split('\n')
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !path.endsWith('.d.ts'));
}

describe('library internals', () => {
  it('are read only in internals modules and the modules a decision record lists', () => {
    const allowed = modulesNamedByDecisions();
    const outside = sourceFiles()
      .filter((path) => !path.includes('/internals/') && !allowed.has(path))
      .flatMap((path) => reachesIn(readFileSync(join(repo, path), 'utf8')).map((line) => `${path}:${line}`));
    expect(outside).toEqual([]);
  });

  it('finds a planted reach of each kind, and not a name that merely starts with an underscore', () => {
    expect(reachesIn('const kind = schema._zod.def.type;')).toEqual([
      '1: a member named with a leading underscore',
    ]);
    expect(reachesIn("await client.query('delete from graphile_worker._private_jobs');")).toEqual([
      "1: graphile-worker's private tables",
    ]);
    expect(reachesIn("import { x } from '@trpc/server/unstable-core-do-not-import';")).toEqual([
      "1: tRPC's unstable core",
    ]);
    expect(reachesIn("if ('session' in db) return db;")).toEqual(["1: drizzle's undeclared session"]);
    expect(reachesIn('if (tx.session.client) return;')).toEqual(["1: drizzle's undeclared session"]);
    expect(reachesIn('const { type, name: _name, ...params } = action;')).toEqual([]);
    expect(reachesIn('const actor = { ...session.actor };')).toEqual([]);
  });

  it('allows the modules of the decision records’ tables, which exist', () => {
    const allowed = modulesNamedByDecisions();
    expect(allowed.has('apps/server/src/worker/legacy-webhook-jobs.ts')).toBe(true);
    const files = new Set(
      execFileSync('git', ['ls-files'], { cwd: repo, encoding: 'utf8' }).split('\n').filter(Boolean),
    );
    expect([...allowed].filter((path) => !files.has(path))).toEqual([]);
  });
});
