import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The test projects (CONTRIBUTING.md, "Test projects"). A test file belongs to exactly one,
 * decided by what it uses, read from its imports:
 *
 * - `faults`: under apps/server/src/faults/, or starts service processes or a database server
 *   of its own (FAULT_HELPERS) to kill, restart or starve them;
 * - `browser`: drives Chromium (BROWSER_HELPERS);
 * - `domain` (under packages/) and `http` (under apps/): uses the test database or starts the
 *   app (DATABASE_HELPERS), or starts processes of its own (node:child_process);
 * - `unit`: everything else, which runs in the test's own process. It runs with no database
 *   at all: the global PostgreSQL setup is not run for it, and its setup makes the database
 *   helpers and `pg` refuse to connect.
 *
 * Only a helper the file imports by name counts. A file that reaches the database through a
 * helper not listed here lands in `unit` and fails there with an error naming this file:
 * add that helper to DATABASE_HELPERS.
 */
export const PROJECTS = ['unit', 'domain', 'http', 'browser', 'faults'] as const;
export type ProjectName = (typeof PROJECTS)[number];

/** Helpers that open a test database (packages/db/src/testing, packages/domain/src/testing, apps/server/src/testing). */
export const DATABASE_HELPERS = [
  'createTestDatabase',
  'createAdministeredTestDatabase',
  'openTestDb',
  'startTestApp',
  // Starts the app (startTestApp) with a stand-in for the web app's page (the OAuth tests).
  'startAppWithConsentPage',
] as const;

/** Helpers that start processes or database servers a test kills or restarts (apps/server/src/testing). */
export const FAULT_HELPERS = ['startServerProcess', 'startWorkerProcess', 'startThrowawayPostgres'] as const;

/** What a browser test uses (apps/server/src/web-app/browser.ts, or Playwright itself). */
export const BROWSER_HELPERS = ['launchBrowser', 'signedInBrowser'] as const;
const BROWSER_MODULES = ['playwright-core'];

/** Modules whose use takes a file out of `unit`: it starts processes, which take seconds. */
const PROCESS_MODULES = ['node:child_process', 'child_process'];

const FAULTS_FOLDER = 'apps/server/src/faults/';

/**
 * The names a file imports (`import { a, b as c } from '…'`: a and b), and the modules it
 * imports from; imports of types alone are left out, as they run nothing.
 */
export function importsOf(source: string): { names: Set<string>; modules: Set<string> } {
  const names = new Set<string>();
  const modules = new Set<string>();
  for (const match of source.matchAll(/^\s*import\s+(type\s+)?([^'"]*?)\s*from\s*['"]([^'"]+)['"]/gms)) {
    const [, typeOnly, clause = '', module = ''] = match;
    if (typeOnly) continue;
    modules.add(module);
    const braced = /\{([^}]*)\}/s.exec(clause)?.[1] ?? '';
    for (const part of braced.split(',')) {
      const name =
        part
          .trim()
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '';
      if (name && !name.startsWith('type ')) names.add(name);
    }
  }
  return { names, modules };
}

/** The project of one test file, from its path (relative to the repository, with `/`) and source. */
export function projectOf(path: string, source: string): ProjectName {
  const { names, modules } = importsOf(source);
  const uses = (helpers: readonly string[]) => helpers.some((name) => names.has(name));
  if (path.startsWith(FAULTS_FOLDER) || uses(FAULT_HELPERS)) return 'faults';
  if (uses(BROWSER_HELPERS) || BROWSER_MODULES.some((module) => modules.has(module))) return 'browser';
  if (uses(DATABASE_HELPERS) || PROCESS_MODULES.some((module) => modules.has(module))) {
    return path.startsWith('packages/') ? 'domain' : 'http';
  }
  return 'unit';
}

/**
 * Where test files live: `{apps,packages}/*\/src/**\/*.test.ts` and `bench/src/**\/*.test.ts`,
 * placed by projectOf; and the tooling's own tests (`tooling/*\/*.test.ts`: this file's, the
 * lint rules'), which need no database and are `unit` (they may start the tools they test,
 * which take a second).
 */
const TEST_ROOTS = ['apps', 'packages'];
/** Packages at the top of the repository, beside the roots above. */
const TOP_PACKAGES = ['bench'];
export const TOOLING_TESTS = 'tooling/*/*.test.ts';

/** Every test file of the repository at `root`, relative paths with `/`, sorted. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) found.push(relative(root, path).split(sep).join('/'));
    }
  };
  const walkSource = (src: string) => {
    try {
      walk(src);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  };
  for (const top of TEST_ROOTS) {
    for (const pkg of readdirSync(join(root, top), { withFileTypes: true })) {
      if (pkg.isDirectory()) walkSource(join(root, top, pkg.name, 'src'));
    }
  }
  for (const pkg of TOP_PACKAGES) walkSource(join(root, pkg, 'src'));
  return found.sort();
}

/** The package folder (`packages/domain`) that `dir` is in, or undefined outside every package. */
export function packageOf(root: string, dir: string): string | undefined {
  const path = relative(root, dir).split(sep).join('/');
  const top = TOP_PACKAGES.find((pkg) => path === pkg || path.startsWith(`${pkg}/`));
  return top ?? new RegExp(`^(${TEST_ROOTS.join('|')})/[^/]+`).exec(path)?.[0];
}

/** The test files of each project; with `only`, those of that package folder alone. */
export function classify(root: string, only?: string): Record<ProjectName, string[]> {
  const byProject = Object.fromEntries(PROJECTS.map((name) => [name, [] as string[]])) as Record<
    ProjectName,
    string[]
  >;
  for (const file of testFiles(root)) {
    if (only && !file.startsWith(`${only}/`)) continue;
    byProject[projectOf(file, readFileSync(join(root, file), 'utf8'))].push(file);
  }
  return byProject;
}
